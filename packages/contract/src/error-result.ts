import type { ErrorCode } from "./error-codes.js";
import { cloneKeepingExact, holdsExact } from "./exact-filter-values.js";
import { isExactNumberValue } from "./exact-number-value.js";
import { CONTRACT_VERSION, DEFAULT_LIMITS } from "./limits.js";
import type { QueryErrorResult } from "./query-result.js";
import { cutString, jsonByteLength, setData } from "./text-limits.js";

/** What one error envelope says; see createErrorResult for the size rules. */
export interface ErrorResultInput {
  code: ErrorCode;
  /** How to correct the call; cut to maxErrorMessageChars (2048). */
  message: string;
  /** The SPEC.md §6 details of the code; echoed strings are cut to maxEchoChars (120). */
  details?: Record<string, unknown>;
  /** The caller's artifactId as sent (echoed, cut to 120 characters); null when there was none. */
  artifactId?: string | null;
  /** The caller's responsePath as sent (echoed, cut to 120 characters); null when there was none. */
  responsePath?: string | null;
  warning?: string | null;
}

/** Keys whose value is a ready-to-send request: kept whole or dropped whole, never cut inside. */
const WHOLE_VALUE_KEYS = new Set(["suggestedRequest"]);
/** Nesting below this depth in details is replaced by null (details are flat by design). */
const MAX_DETAILS_DEPTH = 6;
const SHORT_WARNING_CHARS = 240;

/** A JSON-safe copy of a primitive: non-finite numbers, functions and symbols become null. */
function cutPrimitive(value: unknown): unknown {
  if (typeof value === "string") return cutString(value, DEFAULT_LIMITS.maxEchoChars);
  if (typeof value === "bigint") return cutString(String(value), DEFAULT_LIMITS.maxEchoChars);
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  return typeof value === "boolean" ? value : null;
}

function cutValue(value: unknown, depth: number): unknown {
  // A request's ExactNumber (SPEC.md §10) stays itself; the answer's exact writer writes its literal.
  if (isExactNumberValue(value)) return value;
  if (value === null || typeof value !== "object") return cutPrimitive(value);
  if (depth >= MAX_DETAILS_DEPTH) return null;
  if (Array.isArray(value)) return value.map((item) => cutValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    setData(out, cutString(key, DEFAULT_LIMITS.maxEchoChars), cutValue(item, depth + 1));
  }
  return out;
}

/** A JSON copy of a ready-to-send request; one that is not JSON (a cycle, a bigint) becomes null. */
function copyWhole(value: unknown): unknown {
  try {
    if (holdsExact(value)) return cloneKeepingExact(value);
    return JSON.parse(JSON.stringify(value) ?? "null");
  } catch {
    return null;
  }
}

/**
 * Details as JSON data with every echoed string cut to maxEchoChars (keys too), nesting below 6
 * levels replaced by null, and ready-to-send requests kept whole; `__proto__` keys stay data.
 */
export function cutDetails(details: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(details)) {
    if (value === undefined) continue;
    const kept = WHOLE_VALUE_KEYS.has(key) ? copyWhole(value) : cutValue(value, 1);
    setData(out, cutString(key, DEFAULT_LIMITS.maxEchoChars), kept);
  }
  return out;
}

function echo(value: string | null | undefined): string | null {
  return typeof value === "string" ? cutString(value, DEFAULT_LIMITS.maxEchoChars) : null;
}

interface Parts {
  code: ErrorCode;
  message: string;
  details: Record<string, unknown> | undefined;
  artifactId: string | null;
  responsePath: string | null;
  warning: string | null;
}

/** Builds the envelope and sets serializedBytes to its own compact JSON size (a fixed point). */
function build(parts: Parts): QueryErrorResult {
  const error: QueryErrorResult["response"]["error"] = {
    code: parts.code,
    message: parts.message,
  };
  if (parts.details !== undefined) error.details = parts.details;
  const result: QueryErrorResult = {
    artifactId: parts.artifactId,
    responsePath: parts.responsePath,
    response: { error },
    responseMeta: {
      contractVersion: CONTRACT_VERSION,
      truncated: false,
      complete: false,
      truncationReason: null,
      returnedCount: 0,
      totalCount: null,
      remainingCount: null,
      nextCursor: null,
      serializedBytes: 0,
      warning: parts.warning,
    },
  };
  for (let size = jsonByteLength(result); size !== result.responseMeta.serializedBytes; ) {
    result.responseMeta.serializedBytes = size;
    size = jsonByteLength(result);
  }
  return result;
}

function fits(result: QueryErrorResult): boolean {
  return result.responseMeta.serializedBytes <= DEFAULT_LIMITS.maxErrorEnvelopeBytes;
}

/**
 * The byte cost of each details entry's value, kept up to date as entries shrink, so choosing
 * the next entry to shrink does not serialize every value again (details may hold thousands).
 */
interface DetailSizes {
  /** JSON bytes of each value, by key. */
  values: Map<string, number>;
  /** JSON bytes of the whole details object. */
  total: number;
}

function entryBytes(key: string, valueBytes: number): number {
  return jsonByteLength(key) + 1 + valueBytes;
}

function measureDetails(details: Record<string, unknown>): DetailSizes {
  const values = new Map<string, number>();
  let total = 1;
  for (const [key, value] of Object.entries(details)) {
    const valueBytes = jsonByteLength(value);
    values.set(key, valueBytes);
    total += entryBytes(key, valueBytes) + 1;
  }
  return { values, total: Math.max(total, 2) };
}

/** The details key whose value costs the most bytes, or undefined when there is none. */
function largestKey(
  details: Record<string, unknown>,
  sizes: DetailSizes,
  skip: ReadonlySet<string>,
): string | undefined {
  let largest: string | undefined;
  let largestSize = -1;
  for (const key of Object.keys(details)) {
    if (skip.has(key)) continue;
    const size = sizes.values.get(key) ?? 0;
    if (size > largestSize) {
      largest = key;
      largestSize = size;
    }
  }
  return largest;
}

/** Halves the array at `key` (or drops the key) and updates `sizes` to match. */
function shrinkEntry(details: Record<string, unknown>, key: string, sizes: DetailSizes): void {
  const value = details[key];
  const before = sizes.values.get(key) ?? 0;
  if (Array.isArray(value) && value.length > 1) {
    const halved = value.slice(0, Math.floor(value.length / 2));
    setData(details, key, halved);
    const after = jsonByteLength(halved);
    sizes.values.set(key, after);
    sizes.total += after - before;
    return;
  }
  delete details[key];
  sizes.values.delete(key);
  sizes.total -= entryBytes(key, before) + (sizes.values.size > 0 ? 1 : 0);
}

/** Shrinks details step by step until the envelope fits: whole requests, long arrays, big keys. */
function shrinkDetails(parts: Parts): QueryErrorResult {
  let result = build(parts);
  if (fits(result) || parts.details === undefined) return result;
  let details: Record<string, unknown> = { ...parts.details };
  if (details["suggestedRequest"] !== undefined) {
    delete details["suggestedRequest"];
    details["suggestedRequestOmitted"] = true;
    result = build({ ...parts, details });
    if (fits(result)) return result;
  }
  const markers = new Set(["suggestedRequestOmitted", "detailsTruncated"]);
  details = { ...details, detailsTruncated: true };
  // The envelope without details; the whole envelope is at least this plus the details' bytes.
  const outside = jsonByteLength(build({ ...parts, details: {} })) - 2;
  const sizes = measureDetails(details);
  for (
    let key = largestKey(details, sizes, markers);
    key !== undefined;
    key = largestKey(details, sizes, markers)
  ) {
    shrinkEntry(details, key, sizes);
    if (outside + sizes.total > DEFAULT_LIMITS.maxErrorEnvelopeBytes) continue;
    result = build({ ...parts, details: { ...details } });
    if (fits(result)) return result;
  }
  return build({ ...parts, details });
}

/**
 * The error envelope of query_response_artifact (SPEC.md §5, §6): `response.error = {code, message,
 * details?}` and a responseMeta that claims no page. It always fits maxErrorEnvelopeBytes (4096):
 * echoed strings (artifactId, responsePath, strings in details) are cut to 120 characters, the
 * message to 2048; a `details.suggestedRequest` that does not fit is dropped and
 * `details.suggestedRequestOmitted` set; if details still do not fit, their longest arrays are
 * halved and their largest keys dropped (`details.detailsTruncated`); last the warning and the
 * message are shortened.
 */
export function createErrorResult(input: ErrorResultInput): QueryErrorResult {
  const parts: Parts = {
    code: input.code,
    message: cutString(input.message, DEFAULT_LIMITS.maxErrorMessageChars),
    details: input.details === undefined ? undefined : cutDetails(input.details),
    artifactId: echo(input.artifactId),
    responsePath: echo(input.responsePath),
    warning:
      typeof input.warning === "string"
        ? cutString(input.warning, DEFAULT_LIMITS.maxErrorMessageChars)
        : null,
  };
  let result = shrinkDetails(parts);
  if (fits(result)) return result;
  const details = result.response.error.details;
  const shortWarning =
    parts.warning === null ? null : cutString(parts.warning, SHORT_WARNING_CHARS);
  let messageChars = parts.message.length;
  while (!fits(result) && messageChars > 1) {
    messageChars = Math.floor(messageChars * 0.75);
    result = build({
      ...parts,
      details,
      warning: shortWarning,
      message: cutString(parts.message, messageChars),
    });
  }
  if (fits(result)) return result;
  // Not reached with the limits above (echoes are cut); kept so the envelope can never grow.
  return build({
    ...parts,
    message: result.response.error.message,
    details: undefined,
    warning: null,
  });
}

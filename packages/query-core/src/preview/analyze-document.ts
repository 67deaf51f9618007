import { DEFAULT_LIMITS } from "@bounded-mcp/contract";
import { escapePointerToken } from "../pointer/pointer.js";
import { isJsonObject } from "../query/json-values.js";
import { estimateJsonBytes, keysOf } from "./estimate-bytes.js";

/** What the oversized-result side learns about a payload before storing it (CONTRACT-v3 §2). */
export interface DocumentAnalysis {
  /** The pointer of an envelope's single data-bearing key, else "". */
  responseRoot: string;
  /** The most useful collections to query, largest first, at most 6. */
  primaryPaths: string[];
  /** The payload says itself that it is partial. */
  sourceTruncated: boolean;
}

/**
 * Collections need at least this many items (arrays) or object-valued entries (keyed objects, of
 * which at least half the entries hold objects, not arrays, as in CONTRACT-v3 §4.5).
 */
export const MIN_COLLECTION_SIZE = 5;

const ROOT_SHARE = 0.5;
const OTHER_DATA_SHARE = 0.1;
const MAX_ENVELOPE_KEYS = 64;
const SOURCE_TRUNCATED_KEYS = ["truncated", "hasMore", "hasMoreData"] as const;
const SOURCE_TRUNCATED_DEPTH = 6;
const MAX_COLLECTION_DEPTH = 5;
const MAX_KEYS_SCANNED = 200;
const MAX_CHILDREN_QUEUED = 50;
const MAX_CONTAINERS_VISITED = 2_000;
const MAX_CANDIDATES = 64;
const MAX_POINTER_CHARS = 256;
const ESTIMATE_BUDGET = 2_000;

/**
 * Finds responseRoot, primaryPaths and sourceTruncated of a parsed payload. Work is capped (a few
 * thousand containers looked at, sizes estimated on samples), so it costs a small fraction of
 * JSON.parse even on a 50 MiB document, and it is deterministic. Limits: collections are searched
 * through objects only (never inside array items, nor inside the entries of a keyed object whose
 * entries look alike, so `/acct_10015/features` is never one) down to 5 levels, pointers longer than 256
 * characters are skipped, and sourceTruncated is searched breadth-first down to depth 6.
 */
export function analyzeDocument(document: unknown): DocumentAnalysis {
  const responseRoot = findResponseRoot(document);
  return {
    responseRoot,
    primaryPaths: findPrimaryPaths(document, responseRoot),
    sourceTruncated: isSourceTruncated(document),
  };
}

function isDataBearing(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return isJsonObject(value) && keysOf(value).length > 0;
}

function findResponseRoot(document: unknown): string {
  if (!isJsonObject(document)) return "";
  const keys = keysOf(document);
  if (keys.length === 0 || keys.length > MAX_ENVELOPE_KEYS) return "";
  const budget = Math.max(1, Math.floor(ESTIMATE_BUDGET / keys.length));
  const sizes = keys.map((key) => estimateJsonBytes(document[key], budget));
  const total = sizes.reduce((sum, size) => sum + size, 0);
  let largest = 0;
  for (let index = 1; index < keys.length; index++) {
    if (sizes[index]! > sizes[largest]!) largest = index;
  }
  const key = keys[largest]!;
  if (!isDataBearing(document[key]) || sizes[largest]! < total * ROOT_SHARE) return "";
  const otherData = keys.some(
    (other, index) =>
      index !== largest &&
      isDataBearing(document[other]) &&
      sizes[index]! >= total * OTHER_DATA_SHARE,
  );
  return otherData ? "" : `/${escapePointerToken(key)}`;
}

interface Candidate {
  pointer: string;
  bytes: number;
  keyed: boolean;
}

function collectionKind(value: unknown): "array" | "keyed" | null {
  if (Array.isArray(value)) return value.length >= MIN_COLLECTION_SIZE ? "array" : null;
  if (!isJsonObject(value)) return null;
  const keys = keysOf(value);
  const end = Math.min(keys.length, MAX_KEYS_SCANNED);
  let objectValued = 0;
  for (let index = 0; index < end; index++) {
    const child = value[keys[index]!];
    if (isJsonObject(child)) objectValued++;
  }
  return objectValued >= MIN_COLLECTION_SIZE && objectValued * 2 >= end ? "keyed" : null;
}

const LIKE_SHAPED_SAMPLES = 24;
const LIKE_SHAPED_SHARE = 0.8;

/**
 * Whether the object entries of a keyed object look alike (an account map, a mime-type table):
 * at least 5 sampled entries are non-empty objects, and they share at least half the keys of the smaller of them and the first sampled one,
 * for at least 80% of the samples. Such an object is one collection; its entries' inner arrays
 * are parts of one entry, never collections of their own.
 */
function isLikeShaped(record: Record<string, unknown>): boolean {
  const keys = keysOf(record);
  const step = Math.max(1, Math.floor(keys.length / LIKE_SHAPED_SAMPLES));
  const shapes: Set<string>[] = [];
  for (let index = 0; index < keys.length && shapes.length < LIKE_SHAPED_SAMPLES; index += step) {
    const child = record[keys[index]!];
    if (isJsonObject(child) && keysOf(child).length > 0) {
      shapes.push(new Set(keysOf(child).slice(0, MAX_KEYS_SCANNED)));
    }
  }
  const [first] = shapes;
  if (first === undefined || shapes.length < Math.min(MIN_COLLECTION_SIZE, keys.length)) {
    return false;
  }
  const alike = shapes.filter((shape) => {
    const smaller = Math.min(shape.size, first.size);
    let shared = 0;
    for (const key of shape) if (first.has(key)) shared++;
    return shared * 2 >= smaller;
  });
  return alike.length >= shapes.length * LIKE_SHAPED_SHARE;
}

/** Breadth-first through objects, so shallow collections are found first and work is capped. */
function collectCandidates(document: unknown): Candidate[] {
  const candidates: Candidate[] = [];
  const queue: { value: unknown; pointer: string; depth: number }[] = [
    { value: document, pointer: "", depth: 0 },
  ];
  for (let head = 0; head < queue.length && head < MAX_CONTAINERS_VISITED; head++) {
    const { value, pointer, depth } = queue[head]!;
    const kind = collectionKind(value);
    if (kind !== null) {
      candidates.push({ pointer, bytes: 0, keyed: kind === "keyed" });
      if (candidates.length >= MAX_CANDIDATES) break;
    }
    if (!isJsonObject(value) || depth >= MAX_COLLECTION_DEPTH) continue;
    if (kind === "keyed" && isLikeShaped(value)) continue;
    const keys = keysOf(value);
    const end = Math.min(keys.length, MAX_KEYS_SCANNED);
    for (let index = 0; index < end; index++) {
      const key = keys[index]!;
      const child = value[key];
      if (typeof child !== "object" || child === null) continue;
      const childPointer = `${pointer}/${escapePointerToken(key)}`;
      if (childPointer.length <= MAX_POINTER_CHARS) {
        queue.push({ value: child, pointer: childPointer, depth: depth + 1 });
      }
    }
  }
  for (const candidate of candidates) {
    const value = valueAt(document, candidate.pointer);
    candidate.bytes = estimateJsonBytes(value, ESTIMATE_BUDGET);
  }
  return candidates;
}

function valueAt(document: unknown, pointer: string): unknown {
  let value = document;
  for (const token of pointer.split("/").slice(1)) {
    const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function findPrimaryPaths(document: unknown, responseRoot: string): string[] {
  const candidates = collectCandidates(document);
  const kept = candidates.filter(
    (candidate) =>
      !candidate.keyed ||
      !candidates.some(
        (other) =>
          other.pointer.startsWith(`${candidate.pointer}/`) &&
          other.bytes >= candidate.bytes * ROOT_SHARE,
      ),
  );
  kept.sort((left, right) => {
    if (right.bytes !== left.bytes) return right.bytes - left.bytes;
    if (left.pointer === responseRoot) return -1;
    if (right.pointer === responseRoot) return 1;
    return left.pointer < right.pointer ? -1 : left.pointer > right.pointer ? 1 : 0;
  });
  return kept.slice(0, DEFAULT_LIMITS.maxPrimaryPaths).map((candidate) => candidate.pointer);
}

function isSourceTruncated(document: unknown): boolean {
  const queue: { value: unknown; depth: number }[] = [{ value: document, depth: 0 }];
  for (let head = 0; head < queue.length && head < MAX_CONTAINERS_VISITED; head++) {
    const { value, depth } = queue[head]!;
    if (isJsonObject(value)) {
      for (const key of SOURCE_TRUNCATED_KEYS) {
        if (Object.hasOwn(value, key) && value[key] === true) return true;
      }
    }
    if (depth >= SOURCE_TRUNCATED_DEPTH - 1 || typeof value !== "object" || value === null) {
      continue;
    }
    enqueueChildren(value, depth + 1, queue);
  }
  return false;
}

function enqueueChildren(
  value: object,
  depth: number,
  queue: { value: unknown; depth: number }[],
): void {
  if (Array.isArray(value)) {
    const end = Math.min(value.length, MAX_CHILDREN_QUEUED);
    for (let index = 0; index < end; index++) {
      if (typeof value[index] === "object") queue.push({ value: value[index], depth });
    }
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = keysOf(record);
  const end = Math.min(keys.length, MAX_CHILDREN_QUEUED);
  for (let index = 0; index < end; index++) {
    const child = record[keys[index]!];
    if (typeof child === "object") queue.push({ value: child, depth });
  }
}

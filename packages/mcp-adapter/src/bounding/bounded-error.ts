import { type BoundedError, createBoundedError } from "@bounded-mcp/contract";
import {
  compactPreview,
  envelopeBudget,
  findInexactNumbers,
  SAMPLE_LADDER,
  stringifyExact,
} from "@bounded-mcp/query-core";

/** The bytes of an envelope as its text is written: inexact literals as written (SPEC.md §10). */
const bytesOf = (value: unknown): number => Buffer.byteLength(stringifyExact(value)?.text ?? "");

/** Why a result could not become an artifact (SPEC.md §2, §6). */
export type BoundingFailure =
  | {
      code: "ARTIFACT_TOO_LARGE";
      byteLength: number;
      limit: number;
      /**
       * The setting the store refused it by: one principal's share (quotaPerPrincipal) or
       * the store's whole cap (quotaBytes); absent for artifactMaxBytes.
       */
      limitName?: "quotaPerPrincipal" | "quotaBytes";
    }
  | { code: "ARTIFACT_STORE_UNAVAILABLE" }
  | { code: "ARTIFACT_STORE_UNAVAILABLE"; redactionProblem: string };

const LIMIT_TEXT = {
  artifactMaxBytes: "the artifact limit",
  quotaPerPrincipal: "this caller's share of the artifact store",
  quotaBytes: "the artifact store's whole capacity",
} as const;

function describeFailure(failure: BoundingFailure): {
  message: string;
  details: Record<string, unknown>;
} {
  if (failure.code === "ARTIFACT_TOO_LARGE") {
    const limitText = LIMIT_TEXT[failure.limitName ?? "artifactMaxBytes"];
    return {
      message: `The tool result is ${failure.byteLength} bytes, over ${limitText} of ${failure.limit} bytes, so it was neither stored nor inlined. Call the tool again with narrower arguments (a filter, a smaller page, fewer fields).`,
      details: {
        byteLength: failure.byteLength,
        limit: failure.limit,
        ...(failure.limitName === undefined ? {} : { limitName: failure.limitName }),
      },
    };
  }
  if ("redactionProblem" in failure) {
    return {
      message: `This oversized tool result could not be redacted (${failure.redactionProblem}), so it was neither stored nor inlined.`,
      details: { retryable: true, reason: "redaction_failed" },
    };
  }
  return {
    message:
      "The artifact store could not keep this oversized tool result, so it was neither stored nor inlined. Retry the call.",
    details: { retryable: true },
  };
}

/**
 * The bounded error of a result that cannot become an artifact: `success: false`, a sample
 * preview in `data` when one fits the envelope budget (max(2 KiB, 5% of the payload), never over
 * `previewBytes`; else null), no artifact, and the §6 error. The payload itself is never inlined.
 * `responseMeta.inexactNumbers` says where the preview writes literals a double does not hold.
 */
export function buildBoundedError(input: {
  failure: BoundingFailure;
  document: unknown;
  hasDocument: boolean;
  serializedBytes: number;
  previewBytes: number;
}): BoundedError {
  const { message, details } = describeFailure(input.failure);
  const base = {
    code: input.failure.code,
    message,
    details,
    serializedBytes: input.serializedBytes,
  };
  const withoutPreview = createBoundedError({ ...base, data: null });
  if (!input.hasDocument) return withoutPreview;
  const budget = envelopeBudget(input.serializedBytes, input.previewBytes);
  const room = budget - bytesOf(withoutPreview) - 16;
  if (room < 64) return withoutPreview;
  const data = compactPreview(input.document, room, { ladder: SAMPLE_LADDER });
  const inexact = findInexactNumbers(data);
  const withPreview = createBoundedError({
    ...base,
    data,
    ...(inexact.total === 0 ? {} : { inexactNumbers: inexact }),
  });
  return bytesOf(withPreview) <= budget ? withPreview : withoutPreview;
}

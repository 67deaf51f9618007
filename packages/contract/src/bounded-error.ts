import type { BoundedError, BoundedErrorCode } from "./bounded.js";
import { cutDetails } from "./error-result.js";
import { CONTRACT_VERSION, DEFAULT_LIMITS } from "./limits.js";
import type { InexactNumbers } from "./query-result.js";
import { cutString } from "./text-limits.js";

/** What a bounded error says; `data` is the preview built before storing failed, or null. */
export interface BoundedErrorInput {
  code: BoundedErrorCode;
  /** How to get a usable result; cut to maxErrorMessageChars (2048). */
  message: string;
  /** ARTIFACT_TOO_LARGE: `{byteLength, limit}`; ARTIFACT_STORE_UNAVAILABLE: `{retryable: true}`. */
  details: Record<string, unknown>;
  /** A deterministic preview already within budget, or null; never the payload itself. */
  data: unknown;
  /** The byte length of the payload that could not be stored. */
  serializedBytes: number;
  /** Where `data` writes number literals a double does not hold (SPEC.md §10); omitted when none. */
  inexactNumbers?: InexactNumbers | undefined;
}

const GUIDANCE: Readonly<Record<BoundedErrorCode, string>> = {
  ARTIFACT_TOO_LARGE:
    "The result was too large to store and was not returned. Call the tool again with narrower arguments (filters, a smaller limit, one page) so its result gets smaller.",
  ARTIFACT_STORE_UNAVAILABLE:
    "The result could not be stored for querying and was not returned. Retry the same call; data, when present, is only a preview.",
};

/**
 * The bounded error result of SPEC.md §2: what replaces a tool result over artifactMaxBytes, or one the
 * store could not take. `success: false`, the preview (or null) in `data`, no artifact reference,
 * and `error: {code, message, details}`; the transport layer sets `isError: true`. The message is
 * cut to 2048 characters and strings in details to 120 (details are copied as JSON data); `data`
 * is taken as given (build it within previewBytes first).
 */
export function createBoundedError(input: BoundedErrorInput): BoundedError {
  return {
    success: false,
    data: input.data === undefined ? null : input.data,
    responseMeta: {
      contractVersion: CONTRACT_VERSION,
      truncated: true,
      complete: false,
      truncationReason: "size_limit",
      serializedBytes: input.serializedBytes,
      ...(input.inexactNumbers === undefined ? {} : { inexactNumbers: input.inexactNumbers }),
    },
    error: {
      code: input.code,
      message: cutString(input.message, DEFAULT_LIMITS.maxErrorMessageChars),
      details: cutDetails(input.details),
    },
    guidance: GUIDANCE[input.code],
  };
}

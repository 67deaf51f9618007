/**
 * The stable error codes of contract v3 (CONTRACT-v3.md §6). Each tells the caller how to correct
 * the call; the value is the doc line shown in documentation and tests.
 */
export const ERROR_CODES = Object.freeze({
  INVALID_RESPONSE_CONTROLS:
    "An argument is invalid, unknown or conflicts with another; details name the field, what was expected and, for a snake_case alias, the camelCase suggestedKey.",
  INVALID_RESPONSE_PATH:
    "responsePath is malformed or does not resolve; details give resolvedPrefix, failedAt, typeAtFailure, availableChildren (up to 30) and a suggestedPath when one is evident.",
  INVALID_FIELD_PATH:
    "A field resolves neither as a literal key nor as a pointer; details give the field and a suggestedField when its pointer form resolves.",
  AMBIGUOUS_COLLECTION:
    "Collection inference or prefix recovery found more than one candidate; details list the candidates to choose from with responsePath.",
  OBJECT_MODE_REQUIRED:
    'Fields or filters target a keyed object; details.suggestedRequest is the same request with objectMode "entries", ready to send.',
  FILTER_PATH_UNRESOLVED:
    "A filter, sort, groupBy or metric path resolves on no selected item; details give the path (every unresolved one in paths) and the item keys that exist.",
  INVALID_RESPONSE_CURSOR:
    "The cursor is malformed, signed by an unknown key, issued for another artifact or other arguments, or past the end; details.reason says which.",
  INVALID_ARTIFACT_HANDLE:
    "The artifact id is malformed, unknown, expired or belongs to another caller (reported as unknown); details.reason says which.",
  ARTIFACT_STORE_UNAVAILABLE:
    "The artifact store failed; the call may be retried (details.retryable is true).",
  ARTIFACT_TOO_LARGE:
    "A tool result is larger than artifactMaxBytes and was neither stored nor inlined; details give byteLength and limit.",
} as const);

/** One of the stable error codes. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** Every error code, in table order. */
export const ERROR_CODE_LIST = Object.freeze(Object.keys(ERROR_CODES) as ErrorCode[]);

/** Reasons of INVALID_RESPONSE_CURSOR. */
export const CURSOR_ERROR_REASONS = ["malformed", "unknown_key", "mismatch", "past_end"] as const;
/** One reason of INVALID_RESPONSE_CURSOR (details.reason). */
export type CursorErrorReason = (typeof CURSOR_ERROR_REASONS)[number];

/** Reasons of INVALID_ARTIFACT_HANDLE. */
export const HANDLE_ERROR_REASONS = ["invalid_id", "unknown", "expired"] as const;
/** One reason of INVALID_ARTIFACT_HANDLE (details.reason). */
export type HandleErrorReason = (typeof HANDLE_ERROR_REASONS)[number];

/** True when the value is one of the stable error codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_CODES, value);
}

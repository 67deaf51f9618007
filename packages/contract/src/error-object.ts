import { z } from "zod";
import { ERROR_CODE_LIST, type ErrorCode } from "./error-codes.js";
import { DEFAULT_LIMITS } from "./limits.js";

/** The wire error: `{code, message, details?}` (SPEC.md §5, §6). */
export const ErrorObjectSchema = z.strictObject({
  code: z.enum(ERROR_CODE_LIST as [ErrorCode, ...ErrorCode[]]),
  message: z.string().max(DEFAULT_LIMITS.maxErrorMessageChars),
  details: z.record(z.string(), z.unknown()).optional(),
});
/** `{code, message, details?}` as it crosses the wire. */
export type ErrorObject = z.infer<typeof ErrorObjectSchema>;

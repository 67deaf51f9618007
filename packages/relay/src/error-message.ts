/**
 * The text of a thrown value for a log field or an error message: an Error's message, anything
 * else as `String(value)`. Limits: the stack and `cause` are dropped, and the text is not cut.
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

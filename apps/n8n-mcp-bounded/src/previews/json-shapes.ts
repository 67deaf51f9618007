/** A plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The keys of `source` that are present, in the order given, copied into a fresh object. */
export function pickKeys(
  source: Record<string, unknown>,
  keys: readonly string[],
): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const key of keys) {
    if (Object.hasOwn(source, key)) picked[key] = source[key];
  }
  return picked;
}

/** A scalar (string, number, boolean, null): what previews copy as is. */
export function isScalar(value: unknown): boolean {
  return value === null || (typeof value !== "object" && typeof value !== "undefined");
}

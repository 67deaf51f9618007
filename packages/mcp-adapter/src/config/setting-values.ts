/** A parsed text value, or why it does not parse (phrased to follow "expected"). */
export type ParsedValue<T> = { ok: true; value: T } | { ok: false; expected: string };

const BYTE_UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  kb: 1_000,
  kib: 1_024,
  mb: 1_000_000,
  mib: 1_024 ** 2,
  gb: 1_000_000_000,
  gib: 1_024 ** 3,
};
const BYTE_SIZE = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i;

/**
 * A byte count: a plain integer (`32768`) or a number with a unit (`32KiB`, `1.5MiB`, `64MB`;
 * KiB/MiB/GiB are powers of 1024, KB/MB/GB of 1000). The result must be a whole number.
 */
export function parseByteSize(text: string): ParsedValue<number> {
  const expected = "a byte count such as 32768, 32KiB or 64MiB";
  const match = BYTE_SIZE.exec(text.trim());
  const unit = BYTE_UNITS[match?.[2]?.toLowerCase() ?? "-"];
  if (match === null || unit === undefined) return { ok: false, expected };
  const value = Number(match[1]) * unit;
  return Number.isSafeInteger(value) ? { ok: true, value } : { ok: false, expected };
}

const DURATION_UNITS: Record<string, number> = {
  "": 1,
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};
const DURATION = /^(\d+)\s*([a-z]*)$/i;

/** A duration in milliseconds: a plain integer of milliseconds or `<n>ms|s|m|h|d` (`30m`, `24h`). */
export function parseDuration(text: string): ParsedValue<number> {
  const expected = "milliseconds or a duration such as 30m, 24h or 7d";
  const match = DURATION.exec(text.trim());
  const unit = DURATION_UNITS[match?.[2]?.toLowerCase() ?? "-"];
  if (match === null || unit === undefined) return { ok: false, expected };
  const value = Number(match[1]) * unit;
  return Number.isSafeInteger(value) ? { ok: true, value } : { ok: false, expected };
}

const TRUE_WORDS = new Set(["true", "1", "yes", "on"]);
const FALSE_WORDS = new Set(["false", "0", "no", "off"]);

/** A boolean: true/false, 1/0, yes/no, on/off (any case). */
export function parseBoolean(text: string): ParsedValue<boolean> {
  const word = text.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return { ok: true, value: true };
  if (FALSE_WORDS.has(word)) return { ok: true, value: false };
  return { ok: false, expected: "true or false (also 1/0, yes/no, on/off)" };
}

/** A whole number written in decimal digits. */
export function parseInteger(text: string): ParsedValue<number> {
  const trimmed = text.trim();
  const value = Number(trimmed);
  return /^\d+$/.test(trimmed) && Number.isSafeInteger(value)
    ? { ok: true, value }
    : { ok: false, expected: "a whole number" };
}

/** Any non-empty text, trimmed. */
export function parseText(text: string): ParsedValue<string> {
  const trimmed = text.trim();
  return trimmed === ""
    ? { ok: false, expected: "a non-empty value" }
    : { ok: true, value: trimmed };
}

/** A byte count as a person writes it: `32KiB`, `64MiB`, else the plain number. */
export function formatByteSize(value: number): string {
  for (const [unit, size] of [
    ["GiB", 1_024 ** 3],
    ["MiB", 1_024 ** 2],
    ["KiB", 1_024],
  ] as const) {
    if (value >= size && value % size === 0) return `${value / size}${unit}`;
  }
  return String(value);
}

/** A duration in milliseconds as a person writes it: `24h`, `7d`, `30m`, `1s`, else `<n>ms`. */
export function formatDuration(value: number): string {
  for (const [unit, size] of [
    ["d", value >= 2 * 86_400_000 ? 86_400_000 : Number.POSITIVE_INFINITY],
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1_000],
  ] as const) {
    if (value >= size && value % size === 0) return `${value / size}${unit}`;
  }
  return `${value}ms`;
}

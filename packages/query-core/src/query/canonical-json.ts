import { canonicalExact, isExactNumber } from "../exact/exact-number.js";

/**
 * Canonical JSON: object keys sorted by UTF-16 code unit, no whitespace, undefined members left
 * out. Deep-equal JSON values (key order aside) have the same text, so it keys groups, distinct
 * sets and the order of arrays and objects (SPEC.md §9 rule 2), and it hashes cursor views.
 * An ExactNumber is written by its exact value (canonicalExact), so `-0` and `0` key one group
 * and 12345678901234567890 and 12345678901234567889 two (SPEC.md §10).
 * Recursive: callers pass parsed JSON, whose depth JSON.parse already bounded.
 */
export function canonicalJson(value: unknown): string {
  if (isExactNumber(value)) return canonicalExact(value);
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    if (record[key] === undefined) continue;
    members.push(`${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  }
  return `{${members.join(",")}}`;
}

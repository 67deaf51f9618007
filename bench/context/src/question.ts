import type { Json, ModelView } from "./model.js";

/** One tool call whose result questions are asked about. */
export interface Source {
  id: string;
  /** Which upstream answers it: n8n-mcp, or server-filesystem. */
  server: "n8n" | "files";
  tool: string;
  arguments: Record<string, unknown>;
  /** How the report names it. */
  label: string;
}

/** A question about one source's result, with its answer computed two ways. */
export interface Question {
  id: string;
  source: string;
  text: string;
  /** The answer, computed by code from the raw result (what the model would read unbounded). */
  truth(raw: Json): unknown;
  /**
   * The scripted answer: only the envelope the model saw and the query tool, as a model would
   * proceed (no peeking at the raw result).
   */
  answer(model: ModelView): Promise<unknown>;
  /** Query powers beyond paging and filters the script uses (sort, aggregate). */
  uses?: readonly string[];
}

/** JSON with object keys sorted, so answers compare by value. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) =>
            a < b ? -1 : a > b ? 1 : 0,
          ),
        )
      : inner,
  );
}

/** Whether a scripted answer is the computed truth (deep, key order aside). */
export function sameAnswer(answer: unknown, truth: unknown): boolean {
  return canonicalJson(answer) === canonicalJson(truth);
}

/** Distinct values in first-appearance order. */
export function distinct<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** Strings sorted, for answers that are sets. */
export function sorted(values: readonly string[]): string[] {
  return [...values].sort();
}

/** Whether a preview list was cut (its last item is an omission marker). */
export function isCut(list: unknown): boolean {
  if (!Array.isArray(list)) return true;
  const last = list.at(-1);
  return typeof last === "object" && last !== null && "_omittedItems" in last;
}

/** Whether a preview object lost keys (`_omittedKeys`). */
export function lostKeys(record: unknown): boolean {
  return typeof record !== "object" || record === null || "_omittedKeys" in record;
}

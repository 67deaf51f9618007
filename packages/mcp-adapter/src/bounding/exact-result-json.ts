import { stringifyExact } from "@bounded-mcp/query-core";

/** An answer's text block and its structuredContent. */
export interface ExactResultJson {
  text: string;
  structuredContent: Record<string, unknown>;
}

/**
 * The text and structuredContent of an answer (an envelope or a query result) that may hold
 * query-core ExactNumbers (SPEC.md §10): the text writes each as the upstream's literal; the
 * structuredContent is the value itself when it holds none (no copy, one JSON.stringify), else
 * plain JSON data with the doubles (what JSON.parse of the text gives, `1e400` as null), so what
 * a client validates and forwards is ordinary JSON.
 */
export function exactResultJson(value: object): ExactResultJson {
  const exact = stringifyExact(value);
  const text = exact?.text ?? "null";
  if (exact === undefined || exact.count === 0) {
    return { text, structuredContent: value as Record<string, unknown> };
  }
  return { text, structuredContent: JSON.parse(JSON.stringify(value)) as Record<string, unknown> };
}

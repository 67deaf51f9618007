import { parseQueryRequest } from "@bounded-mcp/contract";
import { describe, expect, it } from "vitest";
import {
  AGGREGATE_EXAMPLE,
  createQueryToolDescription,
  MAX_QUERY_TOOL_DESCRIPTION_CHARS,
  SORT_EXAMPLE,
} from "./description.js";

describe("the query tool's description", () => {
  it("stays within 1,500 characters for any retention period", () => {
    for (const ttlMs of [1_000, 86_400_000, 365 * 86_400_000, 365 * 86_400_000 - 1]) {
      for (const ephemeral of [false, true]) {
        expect(createQueryToolDescription(ttlMs, ephemeral).length).toBeLessThanOrEqual(
          MAX_QUERY_TOOL_DESCRIPTION_CHARS,
        );
      }
    }
    expect(MAX_QUERY_TOOL_DESCRIPTION_CHARS).toBe(1_500);
  });

  it("teaches sort and aggregate with one worked example each, written as sent", () => {
    const description = createQueryToolDescription(86_400_000);
    expect(description).toContain(JSON.stringify(SORT_EXAMPLE));
    expect(description).toContain(JSON.stringify(AGGREGATE_EXAMPLE));
    for (const words of ["nin", "anyOf", 'measure: "length"', "work_limit", "unwind"]) {
      expect(description).toContain(words);
    }
  });

  it("gives examples the contract accepts as they are", () => {
    for (const example of [SORT_EXAMPLE, AGGREGATE_EXAMPLE]) {
      const parsed = parseQueryRequest({ artifactId: "a".repeat(22), ...example });
      expect(parsed.success).toBe(true);
    }
  });

  it("says how long artifacts are kept as the store keeps them: for the retention, or while the server runs", () => {
    const last = (ephemeral: boolean) =>
      createQueryToolDescription(3_600_000, ephemeral).split(". ").at(-1);
    expect([last(false), last(true)]).toEqual([
      "Artifacts are kept for 1 hour; then call the original tool again.",
      "Artifacts are kept while this server process runs, 1 hour at most; then call the original tool again.",
    ]);
  });
});

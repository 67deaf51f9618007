import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createStatsCollector } from "../stats/stats-collector.js";
import { type BoundedMcp, createBoundedMcp } from "./create-bounded-mcp.js";
import { createSmallResultPass } from "./pass-small-result.js";

const INLINE_BYTES = 4_096;
const RECEIVED_JSON = Symbol.for("@bounded-mcp/received-json");

const adapters: BoundedMcp[] = [];
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.dispose()));
});

function adapter(): BoundedMcp {
  const bounded = createBoundedMcp({
    environment: {},
    inlineBytes: INLINE_BYTES,
    previewBytes: 2_048,
  });
  adapters.push(bounded);
  return bounded;
}

/** structuredContent as the relay's stdio transport hands it over: its received text attached. */
function received<T extends object>(value: T, text = JSON.stringify(value)): T {
  Object.defineProperty(value, RECEIVED_JSON, { value: () => text, enumerable: false });
  return value;
}

describe("createSmallResultPass (boundResult's pass-through, synchronously)", () => {
  it("passes what boundResult passes, the same object, counted as boundResult counts it", async () => {
    const results: CallToolResult[] = [
      { content: [{ type: "text", text: 'héllo "quoted" 1.50' }] },
      { content: [{ type: "text", text: "{}" }], structuredContent: received({ a: [1, 2] }) },
      { content: [], isError: true, _meta: { trace: "t1" } },
      { content: [{ type: "text", text: "x".repeat(INLINE_BYTES - 40) }] },
    ];
    const stats = createStatsCollector();
    const pass = createSmallResultPass(INLINE_BYTES, stats);
    const bounded = adapter();
    for (const result of results) {
      expect(pass(result, "tool")).toBe(result);
      expect(await bounded.boundResult(result, { toolName: "tool" })).toBe(result);
    }
    expect(stats.snapshot()).toEqual(bounded.stats());
    expect(stats.snapshot().totals.calls).toBe(4);
  });

  it("leaves to boundResult, counting nothing, what it may bound or would serialize twice", async () => {
    const results: CallToolResult[] = [
      // Over inlineBytes by its content, by its escapes (exact compact JSON), with media.
      { content: [{ type: "text", text: "x".repeat(INLINE_BYTES + 1) }] },
      { content: [{ type: "text", text: '"'.repeat(INLINE_BYTES - 100) }] },
      { content: [{ type: "image", data: "aGk=", mimeType: "image/png" }] },
      // structuredContent built in process (no received text), or received over inlineBytes.
      { content: [], structuredContent: { a: 1 } },
      { content: [], structuredContent: received({ a: 1 }, `{"a":1${" ".repeat(INLINE_BYTES)}}`) },
    ];
    const stats = createStatsCollector();
    const pass = createSmallResultPass(INLINE_BYTES, stats);
    for (const result of results) expect(pass(result, "tool")).toBeUndefined();
    expect(stats.snapshot().totals.calls).toBe(0);
    // boundResult bounds the first two (the second by its escaped quotes: about 8,000 bytes of JSON).
    const bounded = adapter();
    for (const result of results.slice(0, 2)) {
      const answer = await bounded.boundResult(result, { toolName: "tool" });
      expect(answer.structuredContent).toMatchObject({ responseMeta: { contractVersion: 3 } });
    }
  });
});

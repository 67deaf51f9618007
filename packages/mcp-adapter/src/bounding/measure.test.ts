import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { measureResult } from "./measure.js";

const INLINE_BYTES = 32_768;

function compactBytes(result: CallToolResult): number {
  return Buffer.byteLength(JSON.stringify(result));
}

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const smallResult: fc.Arbitrary<CallToolResult> = fc
  .record(
    {
      content: fc.array(
        fc.record({ type: fc.constant("text" as const), text: fc.string({ unit: "binary" }) }),
        { maxLength: 3 },
      ),
      structuredContent: fc.dictionary(fc.string({ unit: "binary", maxLength: 8 }), jsonValue, {
        maxKeys: 4,
      }),
      isError: fc.boolean(),
      _meta: fc.dictionary(fc.string({ maxLength: 8 }), jsonValue, { maxKeys: 2 }),
    },
    { requiredKeys: ["content"] },
  )
  .map((result) => result as CallToolResult);

describe("measureResult", () => {
  it("gives the exact UTF-8 size of the compact JSON of any result within the budget", () => {
    fc.assert(
      fc.property(smallResult, (result) => {
        const measurement = measureResult(result, INLINE_BYTES);
        expect(measurement).toEqual({
          bytes: compactBytes(result),
          oversized: false,
          structuredJson:
            result.structuredContent === undefined
              ? undefined
              : JSON.stringify(result.structuredContent),
        });
      }),
    );
  });

  it("decides at the exact byte: a result of inlineBytes passes, one byte more is oversized", () => {
    const result = (text: string): CallToolResult => ({
      content: [{ type: "text", text }],
      structuredContent: { note: "é" },
    });
    const overhead = compactBytes(result(""));
    const fits = result("x".repeat(INLINE_BYTES - overhead));
    const over = result("x".repeat(INLINE_BYTES - overhead + 1));
    expect(measureResult(fits, INLINE_BYTES)).toEqual({
      bytes: INLINE_BYTES,
      oversized: false,
      structuredJson: '{"note":"é"}',
    });
    expect(measureResult(over, INLINE_BYTES)).toEqual({
      bytes: INLINE_BYTES + 1,
      oversized: true,
      structuredJson: '{"note":"é"}',
    });
  });

  it("counts multi-byte characters as their UTF-8 bytes, not their UTF-16 length", () => {
    const text = "€".repeat(11_000);
    const result: CallToolResult = { content: [{ type: "text", text }] };
    expect(text.length).toBeLessThan(INLINE_BYTES);
    expect(measureResult(result, INLINE_BYTES)).toEqual({
      bytes: compactBytes(result),
      oversized: true,
      structuredJson: undefined,
    });
  });

  it("reports an oversized result by a lower bound without serializing the whole of it", () => {
    const structuredContent = { rows: ["a".repeat(20_000)] };
    const result: CallToolResult = {
      content: [{ type: "text", text: "b".repeat(20_000) }],
      structuredContent,
    };
    const structuredJson = JSON.stringify(structuredContent);
    expect(measureResult(result, INLINE_BYTES)).toEqual({
      bytes: 20_000 + structuredJson.length,
      oversized: true,
      structuredJson,
    });
  });

  it("does not serialize structuredContent when the content blocks alone are over the budget", () => {
    let serialized = 0;
    const structuredContent = {
      toJSON() {
        serialized += 1;
        return { rows: [] };
      },
    };
    const result = {
      content: [{ type: "text", text: "t".repeat(INLINE_BYTES + 1) }],
      structuredContent,
    } as unknown as CallToolResult;
    expect(measureResult(result, INLINE_BYTES)).toEqual({
      bytes: INLINE_BYTES + 1,
      oversized: true,
    });
    expect(serialized).toBe(0);
  });

  it("counts an oversized result's structuredContent as the text it arrived as, unserialized", () => {
    const wire = '{ "rows" : [ 1.50 ] }';
    const structuredContent = JSON.parse(wire) as Record<string, unknown>;
    Object.defineProperty(structuredContent, Symbol.for("@bounded-mcp/received-json"), {
      value: () => wire,
      enumerable: false,
    });
    const result: CallToolResult = {
      content: [{ type: "text", text: "t".repeat(INLINE_BYTES + 1) }],
      structuredContent,
    };
    expect(measureResult(result, INLINE_BYTES)).toEqual({
      bytes: INLINE_BYTES + 1 + wire.length,
      oversized: true,
      receivedJson: wire,
    });
  });

  it("counts structuredContent as a relay writes it: its literals a double does not hold as received, compact", () => {
    const withText = (wire: string): CallToolResult => {
      const structuredContent = JSON.parse(wire) as Record<string, unknown>;
      Object.defineProperty(structuredContent, Symbol.for("@bounded-mcp/received-json"), {
        value: () => wire,
        enumerable: false,
      });
      return { content: [{ type: "text", text: "t" }], structuredContent };
    };
    const sizeWith = (result: CallToolResult, structuredText: string) =>
      Buffer.byteLength(
        JSON.stringify({ ...result, structuredContent: 0 }).replace(/0}$/, `${structuredText}}`),
      );
    // 500 literals that are 0 as doubles, spaced: counted as `1e-400`, without the spaces.
    const exact = `[${Array.from({ length: 500 }, () => "1e-400").join(",")}]`;
    const inexact = withText(`{ "v" : ${exact.replaceAll(",", ", ")} }`);
    const inexactBytes = sizeWith(inexact, `{"v":${exact}}`);
    // Spaced text without such literals: counted as the value's compact JSON, as before.
    const spaced = withText('{ "rows" : [ 1.50, 2 ] }');
    const spacedBytes = sizeWith(spaced, '{"rows":[1.5,2]}');
    expect([
      measureResult(inexact, inexactBytes),
      measureResult(inexact, inexactBytes - 1).oversized,
      measureResult(spaced, spacedBytes).bytes,
      measureResult(spaced, spacedBytes).oversized,
    ]).toEqual([
      expect.objectContaining({ bytes: inexactBytes, oversized: false }),
      true,
      spacedBytes,
      false,
    ]);
  });
});

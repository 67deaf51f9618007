import {
  type ArtifactRef,
  BoundedEnvelopeSchema,
  QueryToolOutputSchema,
} from "@bounded-mcp/contract";
import { describe, expect, it } from "vitest";
import { runPartialQuery } from "../partial/run-partial-query.js";
import { analyzeDocument } from "../preview/analyze-document.js";
import { createBoundedEnvelope } from "../preview/bounded-envelope.js";
import { runQuery } from "../query/run-query.js";
import { createRequest, createTestContext } from "../query/test-support/query-harness.js";
import { parseJsonExact } from "./parse-exact.js";
import { stringifyExact } from "./stringify-exact.js";

// The upstream's text: five inexact literals beside exact ones (SPEC.md §10).
const TEXT = `{"items":[
  {"id":12345678901234567890,"kind":"big","v":1},
  {"id":12345678901234567889,"kind":"big","v":2},
  {"id":1e400,"kind":"huge","v":3},
  {"id":-0,"kind":"zero","v":4},
  {"id":0.30000000000000000001,"kind":"tenths","v":5},
  {"id":1e-400,"kind":"tiny","v":6},
  {"id":0,"kind":"zero","v":7},
  {"id":5,"kind":"small","v":8}
]}`;

/** Runs one query on the exact parse and returns the answer's text (literals as written). */
function answer(input: Record<string, unknown>): { text: string; result: unknown } {
  const outcome = runQuery(parseJsonExact(TEXT), createRequest(input), createTestContext());
  const text = stringifyExact(outcome.result)?.text as string;
  // What the client's structuredContent is: JSON.parse of the text, valid for the contract.
  expect(QueryToolOutputSchema.safeParse(JSON.parse(text)).error).toBeUndefined();
  if (!outcome.isError) {
    expect(
      (outcome.result as { responseMeta: { serializedBytes: number } }).responseMeta,
    ).toMatchObject({
      serializedBytes: Buffer.byteLength(text),
    });
  }
  return { text, result: JSON.parse(text) };
}

const ids = (text: string) =>
  [...text.matchAll(/(?<=[[,])\{"id":([^,}]+)/g)].map((match) => match[1]);

describe("exact numbers through runQuery (SPEC.md §10)", () => {
  it("writes every literal as the upstream wrote it and says where in inexactNumbers", () => {
    const { text, result } = answer({ responsePath: "/items", fields: ["id"] });
    expect(ids(text)).toEqual([
      "12345678901234567890",
      "12345678901234567889",
      "1e400",
      "-0",
      "0.30000000000000000001",
      "1e-400",
      "0",
      "5",
    ]);
    expect((result as { responseMeta: unknown }).responseMeta).toMatchObject({
      inexactNumbers: {
        pointers: ["/0/id", "/1/id", "/2/id", "/3/id", "/4/id", "/5/id"],
        total: 6,
      },
    });
  });

  it("leaves inexactNumbers out when the page writes none", () => {
    const { result } = answer({ responsePath: "/items", fields: ["kind"] });
    expect((result as { responseMeta: object }).responseMeta).not.toHaveProperty("inexactNumbers");
  });

  it("gt compares by exact value where the doubles are equal", () => {
    // 12345678901234567000 reads back as the double both big literals parse to.
    const { text } = answer({
      responsePath: "/items",
      fields: ["id"],
      filters: [{ path: "id", op: "gt", value: 12345678901234567000 }],
    });
    expect(ids(text)).toEqual(["12345678901234567890", "12345678901234567889", "1e400"]);
  });

  it("eq 0 matches 0 and -0 but not 1e-400 (which a double reads as 0)", () => {
    const { text } = answer({
      responsePath: "/items",
      fields: ["v"],
      filters: [{ path: "id", op: "eq", value: 0 }],
    });
    expect(text).toContain('[{"v":4},{"v":7}]');
    const within = answer({
      responsePath: "/items",
      fields: ["v"],
      filters: [{ path: "id", op: "in", value: [0, 5] }],
    });
    expect(within.text).toContain('[{"v":4},{"v":7},{"v":8}]');
    const other = answer({
      responsePath: "/items",
      fields: ["v"],
      filters: [{ path: "id", op: "ne", value: 0 }],
    });
    expect(other.text).toContain('[{"v":1},{"v":2},{"v":3},{"v":5},{"v":6},{"v":8}]');
  });

  it("sorts by exact value, both ways, ties by document order", () => {
    const { text } = answer({ responsePath: "/items", fields: ["id"], sort: [{ path: "id" }] });
    expect(ids(text)).toEqual([
      "-0",
      "0",
      "1e-400",
      "0.30000000000000000001",
      "5",
      "12345678901234567889",
      "12345678901234567890",
      "1e400",
    ]);
    const down = answer({
      responsePath: "/items",
      fields: ["id"],
      sort: [{ path: "id", order: "desc" }],
      pageSize: 2,
    });
    expect(ids(down.text)).toEqual(["1e400", "12345678901234567890"]);
  });

  it("echoes min, max and group keys as literals; sum uses the doubles", () => {
    const { text } = answer({
      responsePath: "/items",
      aggregate: {
        groupBy: "/kind",
        metrics: [
          { op: "min", path: "/id" },
          { op: "max", path: "/id" },
          { op: "countDistinct", path: "/id" },
        ],
      },
    });
    expect(text).toContain(
      '{"/kind":"big","min(/id)":12345678901234567889,"max(/id)":12345678901234567890,"countDistinct(/id)":2}',
    );
    expect(text).toContain('{"/kind":"zero","min(/id)":-0,"max(/id)":-0,"countDistinct(/id)":1}');
    const byId = answer({ responsePath: "/items", aggregate: { groupBy: "/id" } });
    expect(byId.text).toContain('{"/id":12345678901234567890,"count":1}');
    expect(byId.text).toContain('{"/id":12345678901234567889,"count":1}');
  });

  it("answers the same from the stored bytes (the partial scan) as from the parsed document", () => {
    const request = createRequest({ responsePath: "/items", pageSize: 3 });
    const context = createTestContext();
    const partial = runPartialQuery(new TextEncoder().encode(TEXT), request, context);
    expect(partial).toBeDefined();
    const full = runQuery(parseJsonExact(TEXT), request, context);
    expect(stringifyExact(partial?.result)?.text).toBe(stringifyExact(full.result)?.text);
    expect(stringifyExact(partial?.result)?.text).toContain('"id":1e400');
  });

  it("a path into an ExactNumber resolves nowhere (its only string member is toJSON)", () => {
    const { text } = answer({ responsePath: "/items/2/id/toJSON" });
    expect(text).toContain('"code":"INVALID_RESPONSE_PATH"');
    expect(text).toContain('"typeAtFailure":"number"');
  });
});

describe("exact numbers in the bounded envelope's preview", () => {
  it("writes the literals and lists them relative to data", () => {
    const document = parseJsonExact(TEXT);
    const artifact: ArtifactRef = {
      id: "artifact_0123456789abcdefgh",
      mediaType: "application/json",
      byteLength: Buffer.byteLength(TEXT),
      sha256: "ab".repeat(32),
      expiresAt: "2026-11-30T12:00:00.000Z",
      queryTool: "query_response_artifact",
      ...analyzeDocument(document),
    };
    const envelope = createBoundedEnvelope({
      document,
      artifact,
      success: true,
      previewBytes: 4096,
    });
    const text = stringifyExact(envelope)?.text as string;
    expect(BoundedEnvelopeSchema.safeParse(JSON.parse(text)).error).toBeUndefined();
    expect(text).toContain('"data":{"items":[{"id":12345678901234567890,');
    expect(text).toContain('{"id":12345678901234567889,');
    expect(envelope.responseMeta.inexactNumbers).toEqual({
      pointers: ["/items/0/id", "/items/1/id"],
      total: 2,
    });
  });
});

import { describe, expect, it } from "vitest";
import { jsonTextResult } from "./support/fixtures.js";
import {
  type Connection,
  closeAfterEach,
  connectLowLevelServer,
  createTestAdapter,
} from "./support/harness.js";

/**
 * What trying the landed build from outside found (a malicious upstream, a confused model), each
 * through a real SDK Client and Server over InMemoryTransport, each fixed in query-core and kept
 * here as the regression test of the whole path.
 */

const track = closeAfterEach();

interface Envelope {
  response?: unknown;
  responseMeta: { artifact?: { id: string }; totalCount: number | null; warning: string | null };
}

/**
 * An adapter and a client whose `fixture` tool returns `payload` as JSON text (bounded); a string
 * payload is that text as it is (an upstream's text, e.g. one too deep for JSON.stringify).
 */
async function connectFixture(payload: unknown): Promise<{ connection: Connection; id: string }> {
  const bounded = createTestAdapter();
  const toolResult =
    typeof payload === "string"
      ? { content: [{ type: "text" as const, text: payload }] }
      : jsonTextResult(payload);
  const connection = await connectLowLevelServer(bounded, {
    fixture: { result: () => toolResult },
  });
  track(bounded, connection);
  const result = await connection.client.callTool({ name: "fixture", arguments: {} });
  const id = (result.structuredContent as Envelope).responseMeta.artifact?.id;
  if (id === undefined) throw new Error("the fixture's result was not bounded");
  return { connection, id };
}

async function query(connection: Connection, args: Record<string, unknown>) {
  const result = await connection.client.callTool({
    name: "query_response_artifact",
    arguments: args,
  });
  return { isError: result.isError === true, envelope: result.structuredContent as Envelope };
}

const errorOf = (envelope: Envelope) =>
  (envelope.response as { error?: { code: string; message: string; details?: unknown } }).error;

/** 3,000 items `{i, k, pad}`: large enough to be bounded at the default inlineBytes. */
const items = Array.from({ length: 3_000 }, (_, i) => ({ i, k: `k${i % 7}`, pad: "x".repeat(20) }));

/** The JSON text of a value nested `depth` arrays deep: `[[[...[1]...]]]`. */
const nestedText = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;

describe("from outside: jsonPath filter selectors", () => {
  it("refuses a filter selector written with parentheses, saying it is never evaluated", async () => {
    const { connection, id } = await connectFixture({ items });
    const { isError, envelope } = await query(connection, {
      artifactId: id,
      jsonPath: "$.items[?(@.i > 2)]",
    });
    expect(isError).toBe(true);
    expect(errorOf(envelope)?.code).toBe("INVALID_RESPONSE_CONTROLS");
    expect(errorOf(envelope)?.message).toContain("never evaluated");
  });

  // Found: RFC 9535's filter selector without parentheses, `[?@.i > 2]`, was not refused;
  // jsonpath-plus (eval off) selected nothing, so the model read "no item has i > 2" while 2,997 do.
  it("refuses a filter selector written without parentheses (RFC 9535 `[?@.i > 2]`)", async () => {
    const { connection, id } = await connectFixture({ items });
    const { isError, envelope } = await query(connection, {
      artifactId: id,
      jsonPath: "$.items[?@.i > 2]",
    });
    expect(envelope.response).not.toEqual([]);
    expect(isError).toBe(true);
    expect(errorOf(envelope)?.code).toBe("INVALID_RESPONSE_CONTROLS");
  });
});

describe("from outside: values nested thousands of levels deep", () => {
  const depth = 5_000;
  const payload = () =>
    `{"items":${JSON.stringify(items.slice(0, 400))},"deep":${nestedText(depth)},"flat":[1]}`;

  it("bounds the result and pages the deep value compacted, not cut", async () => {
    const { connection, id } = await connectFixture(payload());
    const { isError, envelope } = await query(connection, {
      artifactId: id,
      responsePath: "/deep",
    });
    expect(isError).toBe(false);
    expect(envelope.responseMeta.totalCount).toBe(1);
    expect(JSON.stringify(envelope.response)).toContain('"_omittedItems":1');
  });

  // Found: a group key, a countDistinct value or a sort value nested 5,000 levels deep (a 10 KB
  // value; V8's JSON.parse takes it) overflowed the stack in canonical JSON, and the model got
  // INVALID_RESPONSE_CONTROLS, reason "internal", for a valid request.
  it("groups entries whose values are nested 5,000 levels deep", async () => {
    const { connection, id } = await connectFixture(payload());
    const { isError, envelope } = await query(connection, {
      artifactId: id,
      responsePath: "",
      objectMode: "entries",
      aggregate: { metrics: [{ op: "count" }, { op: "countDistinct", path: "/value" }] },
    });
    expect(errorOf(envelope)?.message ?? "").not.toContain("call stack");
    expect(isError).toBe(false);
    expect(envelope.response).toEqual([{ count: 3, "countDistinct(/value)": 3 }]);
  });

  it("groups by a value nested 5,000 levels deep, and sorts by it", async () => {
    const { connection, id } = await connectFixture(payload());
    const entries = { artifactId: id, responsePath: "", objectMode: "entries" } as const;
    const grouped = await query(connection, {
      ...entries,
      aggregate: { groupBy: "/value", metrics: [{ op: "count" }] },
    });
    const sorted = await query(connection, {
      ...entries,
      sort: [{ path: "/value", order: "desc" }],
      fields: ["key"],
    });
    expect({
      grouped: [grouped.isError, grouped.envelope.responseMeta.totalCount],
      sorted: [sorted.isError, sorted.envelope.response],
    }).toEqual({
      grouped: [false, 3],
      sorted: [false, [{ key: "items" }, { key: "deep" }, { key: "flat" }]],
    });
  });
});

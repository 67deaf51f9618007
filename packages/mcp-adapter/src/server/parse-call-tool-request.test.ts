import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCallToolRequest } from "./parse-call-tool-request.js";

/** What the SDK hands a registered tools/call handler, or the error it fails the request with. */
function sdkParse(request: unknown): unknown {
  try {
    return { parsed: CallToolRequestSchema.parse(request) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function fastParse(request: { method: string; params?: unknown }): unknown {
  try {
    return { parsed: parseCallToolRequest(request) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constant(undefined),
  fc.constant(Object.fromEntries([["__proto__", { polluted: true }]])),
);
const progressToken = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null));
const meta = fc.oneof(
  fc.record({ progressToken }, { requiredKeys: [] }),
  fc.record({ "io.modelcontextprotocol/related-task": fc.record({ taskId: fc.string() }) }),
  fc.dictionary(fc.string({ maxLength: 6 }), anyValue, { maxKeys: 3 }),
  anyValue,
);
const params = fc.oneof(
  fc.record(
    {
      name: fc.oneof(fc.string(), fc.integer()),
      arguments: fc.oneof(fc.dictionary(fc.string({ maxLength: 6 }), anyValue), anyValue),
      _meta: meta,
      task: fc.oneof(fc.record({ ttl: fc.integer() }), anyValue),
      extra: anyValue,
    },
    { requiredKeys: ["name"] },
  ),
  anyValue,
);
const request = fc.record(
  {
    jsonrpc: fc.constant("2.0"),
    id: fc.integer(),
    method: fc.oneof(fc.constant("tools/call"), fc.constant("tools/list")),
    params,
  },
  { requiredKeys: ["jsonrpc", "id", "method"] },
);

describe("parseCallToolRequest", () => {
  it("gives what CallToolRequestSchema gives, or fails with its error, for any request", () => {
    fc.assert(
      fc.property(request, (candidate) => {
        expect(fastParse(candidate)).toEqual(sdkParse(candidate));
      }),
      { numRuns: 2000 },
    );
  });

  it("parses the usual call without keeping the JSON-RPC envelope", () => {
    const parsed = parseCallToolRequest({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "hi" }, _meta: { progressToken: 3 } },
    } as { method: string; params?: unknown });
    expect(parsed).toStrictEqual({
      method: "tools/call",
      params: { name: "echo", arguments: { text: "hi" }, _meta: { progressToken: 3 } },
    });
  });

  it("drops a __proto__ argument as the schema does, instead of keeping it as data", () => {
    const args = JSON.parse('{"__proto__": {"polluted": true}, "text": "hi"}') as object;
    expect(
      parseCallToolRequest({ method: "tools/call", params: { name: "echo", arguments: args } }),
    ).toStrictEqual(
      CallToolRequestSchema.parse({
        method: "tools/call",
        params: { name: "echo", arguments: args },
      }),
    );
  });
});

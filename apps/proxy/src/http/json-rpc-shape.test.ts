import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { checkJsonRpcMessages } from "./json-rpc-shape.js";

describe("checkJsonRpcMessages", () => {
  it("takes a plain request and notification as they are (the same objects)", () => {
    const call = {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "t", arguments: {} },
    };
    const note = { jsonrpc: "2.0", method: "notifications/initialized" };
    const [first, second] = checkJsonRpcMessages([call, note])!;
    expect(first).toBe(call);
    expect(second).toBe(note);
  });

  it("leaves every other shape to the SDK's schema, with its outcome", () => {
    const bodies: unknown[] = [
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta: { progressToken: 1 } } },
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 1.5, method: "ping" },
      { jsonrpc: "2.0", id: 1, method: "ping", extra: true },
      JSON.parse('{"jsonrpc":"2.0","id":1,"method":"ping","__proto__":{}}'),
      { jsonrpc: "1.0", id: 1, method: "ping" },
      "ping",
    ];
    for (const body of bodies) {
      const parsed = JSONRPCMessageSchema.safeParse(body);
      expect(checkJsonRpcMessages(body)).toEqual(parsed.success ? [parsed.data] : null);
    }
  });

  it("refuses a batch with one message that is not JSON-RPC", () => {
    expect(checkJsonRpcMessages([{ jsonrpc: "2.0", method: "ping", id: 1 }, { id: 2 }])).toBeNull();
  });
});

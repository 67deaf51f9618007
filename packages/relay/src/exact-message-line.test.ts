import { describe, expect, it } from "vitest";
import { messageLine } from "./exact-message-line.js";
import { withExactToolArguments } from "./exact-query-arguments.js";
import { attachReceivedJson, forgetReceivedJson } from "./received-json.js";
import type { JSONRPCMessage } from "./sdk/types.js";

const LITERAL = "12345678901234567891";

/** A client's tools/call line, parsed as the stdio server transport parses it. */
function receivedCall(line: string): JSONRPCMessage {
  return withExactToolArguments(line, JSON.parse(line)) as JSONRPCMessage;
}

/** A result whose structuredContent was parsed from `structuredText` and keeps that text. */
function receivedResult(structuredText: string): JSONRPCMessage {
  const structuredContent = JSON.parse(structuredText) as object;
  attachReceivedJson(structuredContent, () => structuredText);
  return {
    jsonrpc: "2.0",
    id: 7,
    result: { content: [{ type: "text", text: "small" }], structuredContent },
  } as JSONRPCMessage;
}

describe("messageLine: number literals a double does not hold, relayed as written", () => {
  it("writes a tool call's arguments on to the upstream as the client wrote them", () => {
    const line = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"recordId":${LITERAL},"z":-0,"big":1e400,"n":1.5,"s":"${LITERAL}"}}}`;
    expect(messageLine(receivedCall(line))).toBe(line);
  });

  it("keeps a query call's other arguments as JSON.parse made them, its filters exact", () => {
    const line = `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"query_response_artifact","arguments":{"artifactId":"a","filters":[{"path":"/id","value":${LITERAL}}]}}}`;
    const message = receivedCall(line) as unknown as {
      params: { arguments: { filters: { value: unknown }[] } };
    };
    expect(typeof message.params.arguments.filters[0]?.value).toBe("object");
    expect(messageLine(message as unknown as JSONRPCMessage)).toBe(line);
  });

  it("writes a passed-through result's structuredContent with the upstream's literals", () => {
    const text = `{"id":${LITERAL},"z":-0,"e":1e400,"n":[1.5,2]}`;
    expect(messageLine(receivedResult(text))).toBe(
      `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"small"}],"structuredContent":${text}}}`,
    );
  });

  it("writes JSON.stringify's text when the received text needs no literal, or the value was changed", () => {
    // The received text is only read when it may hold such a literal: here it disagrees with the
    // value on purpose (1.50 against 2), and the value is what is written.
    const plain = receivedResult('{"id":42,"n":1.50}');
    (
      plain as unknown as { result: { structuredContent: { n: number } } }
    ).result.structuredContent.n = 2;
    const changed = receivedResult(`{"id":${LITERAL}}`);
    const structured = (
      changed as unknown as { result: { structuredContent: Record<string, unknown> } }
    ).result.structuredContent;
    forgetReceivedJson(structured);
    structured.id = 1;
    const notification = {
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progress: 1 },
    };
    const lines = [plain, changed, notification].map((message) => messageLine(message as never));
    expect(lines).toEqual([plain, changed, notification].map((message) => JSON.stringify(message)));
    expect(lines[0]).toContain('"n":2');
  });
});

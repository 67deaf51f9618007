import { BoundedErrorSchema } from "@bounded-mcp/contract";
import { describe, expect, it } from "vitest";
import { createTooLargeToolResult, findOversizedResponseId } from "./oversized-response.js";

function find(line: string, edge = 64) {
  const bytes = Buffer.from(line);
  return findOversizedResponseId(bytes.subarray(0, edge), bytes.subarray(-edge));
}

const BIG = "z".repeat(500);

describe("findOversizedResponseId", () => {
  it("finds the id at the end of a response written by an SDK server", () => {
    expect(
      find(`{"result":{"content":[{"type":"text","text":"${BIG}"}]},"jsonrpc":"2.0","id":42}`),
    ).toBe(42);
  });

  it("finds a string id at the start of a response written id-first", () => {
    expect(find(`{"jsonrpc":"2.0","id":"req-\\"7\\"","result":{"text":"${BIG}"}}`)).toBe('req-"7"');
  });

  it("finds the id of an oversized error response", () => {
    expect(find(`{"error":{"code":-1,"message":"${BIG}"},"jsonrpc":"2.0","id":3}`)).toBe(3);
  });

  it("ignores an id nested inside the result", () => {
    expect(find(`{"jsonrpc":"2.0","result":{"text":"${BIG}","item":{"id":9}}}`)).toBeUndefined();
  });

  it("ignores a request from the server, whose id is not one of ours", () => {
    expect(
      find(`{"method":"sampling/createMessage","params":{"x":"${BIG}"},"jsonrpc":"2.0","id":1}`),
    ).toBeUndefined();
  });
});

describe("createTooLargeToolResult", () => {
  it("is the contract's bounded ARTIFACT_TOO_LARGE error, in structuredContent and as text", () => {
    const result = createTooLargeToolResult({
      byteLength: 73_400_320,
      limit: 67_108_864,
      upstream: "fixture",
    });
    expect(result).toEqual({
      content: [{ type: "text", text: JSON.stringify(result.structuredContent) }],
      structuredContent: {
        success: false,
        data: null,
        responseMeta: {
          contractVersion: 3,
          truncated: true,
          complete: false,
          truncationReason: "size_limit",
          serializedBytes: 73_400_320,
        },
        error: {
          code: "ARTIFACT_TOO_LARGE",
          message:
            'The result of upstream "fixture" is 73400320 bytes, over the relay\'s message cap of 67108864 bytes (a bounded relay sets it to 1.3 x artifactMaxBytes, room for the JSON-RPC message around a result of artifactMaxBytes); it was dropped unread. Call the tool again with narrower arguments (a filter, a smaller page, fewer fields), or raise artifactMaxBytes.',
          details: { byteLength: 73_400_320, limit: 67_108_864 },
        },
        guidance:
          "The result was too large to store and was not returned. Call the tool again with narrower arguments (filters, a smaller limit, one page) so its result gets smaller.",
      },
      isError: true,
    });
    expect(BoundedErrorSchema.safeParse(result.structuredContent).success).toBe(true);
  });
});

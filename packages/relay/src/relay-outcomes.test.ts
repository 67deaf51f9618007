import { createHash } from "node:crypto";
import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { setRawCallToolResult } from "@bounded-mcp/mcp-adapter";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { RAW_RESULT_SERVER_PATH } from "./test-support/fixture-paths.js";
import {
  recordedStdioUpstream,
  type StartedRelay,
  startRelay,
} from "./test-support/start-relay.js";

const AS_SENT = z.custom<Record<string, unknown>>((value) => typeof value === "object");
const DEPTH = 100_000;

let relay: StartedRelay;
const sentUpstream: JSONRPCMessage[] = [];

beforeAll(async () => {
  relay = await startRelay({
    upstream: recordedStdioUpstream("raw", [RAW_RESULT_SERVER_PATH], sentUpstream),
    sentUpstream,
  });
});

afterAll(async () => {
  await relay?.close();
});

/** One tools/call through the real SDK Client, its params sent as given, the result as received. */
function call(name: string, argumentsValue?: unknown) {
  const params = argumentsValue === undefined ? { name } : { name, arguments: argumentsValue };
  return relay.downstream.request({ method: "tools/call", params } as never, AS_SENT);
}

function upstreamCallsOf(name: string): number {
  return sentUpstream.filter(
    (message) =>
      "method" in message &&
      message.method === "tools/call" &&
      (message.params as { name?: unknown }).name === name,
  ).length;
}

describe("every outcome of a relayed tool call is a result the client can show", () => {
  it("answers an upstream result: null with an error result at once (it waited for the 10-minute timeout)", async () => {
    expect(await call("null_result")).toMatchInlineSnapshot(`
      {
        "content": [
          {
            "text": "upstream "raw" answered tools/call with result null, not a result object; the call failed.",
            "type": "text",
          },
        ],
        "isError": true,
      }
    `);
  });

  it.each([
    ["string_result", "a string"],
    ["array_result", "an array"],
  ])("answers an upstream result that is %s with an error result at once", async (name, kind) => {
    expect(await call(name)).toEqual({
      content: [
        {
          type: "text",
          text: `upstream "raw" answered tools/call with result ${kind}, not a result object; the call failed.`,
        },
      ],
      isError: true,
    });
  });

  it("answers a result whose content is not an array with an error result naming it", async () => {
    expect(await call("content_not_array")).toMatchInlineSnapshot(`
      {
        "content": [
          {
            "text": "bounded-mcp: tool "content_not_array" returned a result whose content is a string, not an array of content blocks. The result was not passed on; call the tool again or report it to its server's maintainers.",
            "type": "text",
          },
        ],
        "isError": true,
      }
    `);
  });

  it("answers a large result whose text block is not a string with an error result naming it (it was -32603 with a raw TypeError)", async () => {
    expect(await call("text_not_string")).toMatchInlineSnapshot(`
      {
        "content": [
          {
            "text": "bounded-mcp: tool "text_not_string" returned a result whose content[0].text is an object, not a string. The result was not passed on; call the tool again or report it to its server's maintainers.",
            "type": "text",
          },
        ],
        "isError": true,
      }
    `);
  });

  it("bounds structuredContent nested 100,000 deep, storing its exact compact JSON (it was -32603 Maximum call stack size exceeded)", async () => {
    const text = `${'{"a":['.repeat(DEPTH)}1${"]}".repeat(DEPTH)}`;
    const result = (await call("deep_structured")) as {
      isError?: boolean;
      structuredContent: { responseMeta: { artifact: Record<string, unknown> } };
    };
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent.responseMeta.artifact).toMatchObject({
      mediaType: "application/json",
      byteLength: Buffer.byteLength(text),
      sha256: createHash("sha256").update(text).digest("hex"),
    });
    const page = (await call(QUERY_TOOL_NAME, {
      artifactId: result.structuredContent.responseMeta.artifact.id,
      responsePath: "/a/0/a/0",
    })) as { isError?: boolean; structuredContent: { responsePath: string } };
    expect(page.isError).toBeUndefined();
    expect(page.structuredContent.responsePath).toBe("/a/0/a/0");
  });

  it("bounds a text block holding JSON nested 100,000 deep", async () => {
    const text = `${'{"a":['.repeat(DEPTH)}1${"]}".repeat(DEPTH)}`;
    const result = (await call("deep_text")) as {
      structuredContent: { responseMeta: { artifact: Record<string, unknown> } };
    };
    expect(result.structuredContent.responseMeta.artifact).toMatchObject({
      byteLength: Buffer.byteLength(text),
      sha256: createHash("sha256").update(text).digest("hex"),
    });
  });
});

describe("tool-call arguments the relay cannot pass on unchanged", () => {
  it.each([
    ["an array", []],
    ["a string", "x"],
    ["a number", 42],
    ["null", null],
  ])(
    "answers query arguments that are %s with an INVALID_RESPONSE_CONTROLS envelope (it was -32603 with a zod dump)",
    async (_, value) => {
      const result = (await call(QUERY_TOOL_NAME, value)) as {
        isError: boolean;
        structuredContent: { response: { error: unknown } };
      };
      expect(result.isError).toBe(true);
      expect(result.structuredContent.response.error).toEqual({
        code: "INVALID_RESPONSE_CONTROLS",
        message: `The arguments must be an object of query arguments, at least {artifactId}; call ${QUERY_TOOL_NAME} with responseMeta.artifact.id as artifactId.`,
        details: { field: "", expected: "an object of query arguments, at least {artifactId}" },
      });
    },
  );

  it("answers query arguments with an own __proto__ key with an INVALID_RESPONSE_CONTROLS envelope (it was dropped silently)", async () => {
    const value: unknown = JSON.parse('{"artifactId":"abc","__proto__":{"pageSize":1}}');
    const result = (await call(QUERY_TOOL_NAME, value)) as {
      structuredContent: { response: { error: { code: string; details: unknown } } };
    };
    expect(result.structuredContent.response.error).toMatchObject({
      code: "INVALID_RESPONSE_CONTROLS",
      details: { field: "__proto__" },
    });
  });

  it.each([
    ["an array", [], "arguments that are an array, not a JSON object"],
    ["a number", 42, "arguments that are a number, not a JSON object"],
    ["null", null, "arguments that are null, not a JSON object"],
  ])(
    "answers an upstream tool called with %s with an error result and does not call it",
    async (_, value, problem) => {
      const before = upstreamCallsOf("echo_arguments");
      expect(await call("echo_arguments", value)).toEqual({
        content: [
          {
            type: "text",
            text: `bounded-mcp: tool "echo_arguments" was called with ${problem}; send the arguments as an object of named values`,
          },
        ],
        isError: true,
      });
      expect(upstreamCallsOf("echo_arguments")).toBe(before);
    },
  );

  it("answers an upstream tool called with an own __proto__ argument with an error result (it was forwarded without it)", async () => {
    const before = upstreamCallsOf("echo_arguments");
    const value: unknown = JSON.parse('{"keep":1,"__proto__":{"admin":true}}');
    expect(await call("echo_arguments", value)).toMatchInlineSnapshot(`
      {
        "content": [
          {
            "text": "bounded-mcp: tool "echo_arguments" was called with an argument named "__proto__", which cannot be passed on as data (it would be dropped); rename or remove it",
            "type": "text",
          },
        ],
        "isError": true,
      }
    `);
    expect(upstreamCallsOf("echo_arguments")).toBe(before);
  });

  it("still forwards ordinary arguments as received", async () => {
    expect(await call("echo_arguments", { keep: 1, nested: { __proto__: null } })).toEqual({
      content: [{ type: "text", text: '{"keep":1,"nested":{}}' }],
    });
  });
});

describe("a hook's override the client could not show", () => {
  it("becomes an error result naming the problem", async () => {
    const hooked = await startRelay({
      upstream: recordedStdioUpstream("raw", [RAW_RESULT_SERVER_PATH], []),
      hooks: {
        echo_arguments: () => {
          setRawCallToolResult({ content: [{ type: "text", text: 5 as unknown as string }] });
        },
      },
    });
    try {
      const result = await hooked.downstream.request(
        { method: "tools/call", params: { name: "echo_arguments", arguments: {} } } as never,
        AS_SENT,
      );
      expect(result).toMatchObject({
        isError: true,
        content: [
          {
            type: "text",
            text: expect.stringContaining("returned a result whose content[0].text is a number"),
          },
        ],
      });
    } finally {
      await hooked.close();
    }
  });
});

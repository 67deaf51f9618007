import { createHash } from "node:crypto";
import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { LITERAL_STRUCTURED, startLiteralHttpUpstream } from "./support/literal-http-upstream.js";
import { connectStdioProxy } from "./support/proxy-process.js";
import type { Envelope } from "./support/query.js";

const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function answerText(client: Client, artifactId: string, responsePath: string) {
  const result = (await client.callTool({
    name: QUERY_TOOL_NAME,
    arguments: { artifactId, responsePath },
  })) as { content: { text: string }[] };
  return result.content[0]?.text ?? "";
}

describe.each([
  ["JSON", true],
  ["SSE", false],
])("bounded-mcp-proxy --upstream-url, the upstream answering %s", (_, json) => {
  it("stores structuredContent as the upstream wrote it and answers its literals exactly", async () => {
    const upstream = await startLiteralHttpUpstream(json);
    cleanups.push(() => upstream.close());
    const client = await connectStdioProxy(["--upstream-url", upstream.url]);
    cleanups.push(() => client.close());
    // Not structured(): the text block writes the literals exactly, JSON cannot (SPEC.md §10).
    const result = (await client.callTool({ name: "literal" })) as unknown as {
      structuredContent: Envelope;
    };
    const { artifact } = result.structuredContent.responseMeta;
    expect({ byteLength: artifact.byteLength, sha256: artifact.sha256 }).toEqual({
      byteLength: Buffer.byteLength(LITERAL_STRUCTURED),
      sha256: createHash("sha256").update(LITERAL_STRUCTURED).digest("hex"),
    });
    expect(await answerText(client, artifact.id, "/big")).toContain(
      '"response":12345678901234567890',
    );
    expect(await answerText(client, artifact.id, "/huge")).toContain('"response":1e400');
    expect(await answerText(client, artifact.id, "/negativeZero")).toContain('"response":-0');
    expect(await answerText(client, artifact.id, "/lone")).toContain('"response":"\\ud800"');
  });
});

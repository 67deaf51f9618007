import { createHash } from "node:crypto";
import { createMemoryStore } from "@bounded-mcp/stores";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { itemsPayloadOfSize, jsonTextResult } from "../../test/support/fixtures.js";
import {
  closeAfterEach,
  connectLowLevelServer,
  createTestAdapter,
} from "../../test/support/harness.js";
import type { BoundedMcpOptions } from "../server/create-bounded-mcp.js";
import { createRecordingLogger } from "../testing/index.js";

const track = closeAfterEach();

/** `bytes` of deterministic, incompressible-looking data as base64. */
function base64Of(bytes: number, seed: number): string {
  const data = Buffer.alloc(bytes);
  let state = seed;
  for (let index = 0; index < bytes; index += 1) {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    data[index] = state >>> 24;
  }
  return data.toString("base64");
}

const image = { type: "image" as const, mimeType: "image/png", data: base64Of(150_000, 1) };
const audio = { type: "audio" as const, mimeType: "audio/wav", data: base64Of(90_000, 2) };

/** What server-filesystem's read_media_file sends: the block, and structuredContent repeating it. */
const MEDIA_OUTPUT_SCHEMA = {
  type: "object" as const,
  properties: {
    content: {
      type: "array",
      items: {
        type: "object",
        properties: {
          type: { type: "string", enum: ["image", "audio"] },
          data: { type: "string" },
          mimeType: { type: "string" },
        },
        required: ["type", "data", "mimeType"],
      },
    },
  },
  required: ["content"],
};

async function setUp(result: CallToolResult, options: BoundedMcpOptions = {}, schema = false) {
  const bounded = createTestAdapter(options);
  const connection = await connectLowLevelServer(bounded, {
    fixture: {
      result: () => result,
      ...(schema ? { definition: { outputSchema: MEDIA_OUTPUT_SCHEMA } } : {}),
    },
  });
  track(bounded, connection);
  if (schema) await connection.client.listTools();
  const call = () => connection.client.callTool({ name: "fixture", arguments: {} });
  return { bounded, connection, call };
}

function sha256(base64: string): string {
  return createHash("sha256").update(Buffer.from(base64, "base64")).digest("hex");
}

describe("media blocks (SPEC.md §2 Media)", () => {
  it("passes an image within the media budget unchanged, though it is over inlineBytes", async () => {
    const result = { content: [{ type: "text" as const, text: "a chart" }, image] };
    const { call } = await setUp(result);
    expect(await call()).toEqual(result);
  });

  it("passes server-filesystem's image with the structuredContent that repeats it, which SDK clients validate", async () => {
    const result = { content: [image], structuredContent: { content: [image] } };
    const { call } = await setUp(result, {}, true);
    expect(await call()).toEqual(result);
  });

  it("passes an audio block within the budget unchanged", async () => {
    const result = { content: [audio] };
    const { call } = await setUp(result);
    expect(await call()).toEqual(result);
  });

  it("stores an image over the budget and links it in place; resources/read gives back the same bytes", async () => {
    const result = { content: [{ type: "text" as const, text: "a chart" }, image] };
    const { call, connection } = await setUp(result, { mediaBytes: 100_000 });
    const answer = (await call()) as CallToolResult;
    const link = answer.content[1] as { uri: string };
    expect(answer).toEqual({
      content: [
        { type: "text", text: "a chart" },
        {
          type: "resource_link",
          uri: expect.stringMatching(/^artifact:\/\/bounded-mcp\/[A-Za-z0-9_-]{24}$/),
          name: expect.stringMatching(/^image-/),
          title: "Stored image (over the media budget)",
          description: `A image/png image of 150000 bytes (200000 base64 characters), over this server's media budget of 100000 base64 characters per result; resources/read of this URI returns it as a blob.`,
          mimeType: "image/png",
          size: 150_000,
        },
      ],
    });
    const read = await connection.client.readResource({ uri: link.uri });
    expect(read).toEqual({
      contents: [{ uri: link.uri, mimeType: "image/png", blob: image.data }],
    });
  });

  it("stores audio over the budget and reads it back as the same blob", async () => {
    const { call, connection } = await setUp({ content: [audio] }, { mediaBytes: 1_000 });
    const answer = (await call()) as CallToolResult;
    const link = answer.content[0] as { type: string; uri: string; mimeType: string; size: number };
    expect(link).toMatchObject({ type: "resource_link", mimeType: "audio/wav", size: 90_000 });
    const read = await connection.client.readResource({ uri: link.uri });
    expect(read.contents).toEqual([{ uri: link.uri, mimeType: "audio/wav", blob: audio.data }]);
  });

  it("keeps the first media that fit the budget and stores the one that does not", async () => {
    const result = { content: [audio, image] };
    const { call } = await setUp(result, { mediaBytes: audio.data.length + 10 });
    const answer = (await call()) as CallToolResult;
    expect(answer.content.map((block) => block.type)).toEqual(["audio", "resource_link"]);
    expect(answer.content[0]).toEqual(audio);
  });

  it("passes the image of a mixed result and bounds its huge JSON text as before", async () => {
    const payload = itemsPayloadOfSize(200_000);
    const [text] = jsonTextResult(payload).content;
    const { call, connection } = await setUp({
      content: [text as { type: "text"; text: string }, image],
    });
    const answer = (await call()) as CallToolResult;
    expect(answer.content.map((block) => block.type)).toEqual(["text", "resource_link", "image"]);
    expect(answer.content[2]).toEqual(image);
    const envelope = answer.structuredContent as {
      responseMeta: { artifact: { id: string; mediaType: string; byteLength: number } };
    };
    expect(JSON.parse((answer.content[0] as { text: string }).text)).toEqual(envelope);
    expect(envelope.responseMeta.artifact).toMatchObject({
      mediaType: "application/json",
      byteLength: Buffer.byteLength(JSON.stringify(payload)),
    });
    const page = await connection.client.callTool({
      name: "query_response_artifact",
      arguments: { artifactId: envelope.responseMeta.artifact.id, responsePath: "/data/items/0" },
    });
    expect(page.isError).toBeUndefined();
    expect((page.structuredContent as { response: unknown }).response).toEqual(
      payload.data.items[0],
    );
  });

  it("replaces structuredContent repeating a stored image by the envelope of its facts, which SDK clients validate", async () => {
    const result = { content: [image], structuredContent: { content: [image] } };
    const { call, connection } = await setUp(result, { mediaBytes: 1_000 }, true);
    const answer = (await call()) as CallToolResult;
    expect(answer.content.map((block) => block.type)).toEqual([
      "text",
      "resource_link",
      "resource_link",
    ]);
    const envelope = answer.structuredContent as { responseMeta: { artifact: { id: string } } };
    const page = await connection.client.callTool({
      name: "query_response_artifact",
      arguments: { artifactId: envelope.responseMeta.artifact.id, responsePath: "/content/0" },
    });
    expect((page.structuredContent as { response: unknown }).response).toEqual({
      type: "image",
      mimeType: "image/png",
      data: {
        type: "image",
        mimeType: "image/png",
        byteLength: 150_000,
        sha256: sha256(image.data),
        binaryOmitted: true,
      },
    });
    const mediaLink = answer.content[2] as { uri: string };
    const read = await connection.client.readResource({ uri: mediaLink.uri });
    expect(read.contents).toEqual([
      { uri: mediaLink.uri, mimeType: "image/png", blob: image.data },
    ]);
  });

  it("reads a JSON artifact's URI as its descriptor, never raw, and another caller's media as not found", async () => {
    const bounded = createTestAdapter({ mediaBytes: 1_000 });
    const tools = { fixture: { result: () => ({ content: [image] }) } };
    const alice = await connectLowLevelServer(bounded, tools, { sessionId: "alice" });
    const bob = await connectLowLevelServer(bounded, tools, { sessionId: "bob" });
    track(bounded, alice);
    track(bounded, bob);
    const answer = (await alice.client.callTool({
      name: "fixture",
      arguments: {},
    })) as CallToolResult;
    const { uri } = answer.content[0] as { uri: string };
    await expect(bob.client.readResource({ uri })).rejects.toMatchObject({ code: -32002 });
  });

  it("describes media over the budget without storing it when resource links are off", async () => {
    const { call } = await setUp({ content: [image] }, { mediaBytes: 1_000, resourceLinks: false });
    expect(await call()).toEqual({
      content: [
        {
          type: "text",
          text: JSON.stringify({
            type: "image",
            mimeType: "image/png",
            byteLength: 150_000,
            sha256: sha256(image.data),
            binaryOmitted: true,
          }),
        },
      ],
    });
  });

  it("fails the result with the bounded ARTIFACT_TOO_LARGE error when a media block is over artifactMaxBytes", async () => {
    const { call } = await setUp(
      { content: [image] },
      { mediaBytes: 1_000, artifactMaxBytes: 100_000, inlineBytes: 32_768 },
    );
    const answer = (await call()) as CallToolResult;
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent).toMatchObject({
      success: false,
      error: { code: "ARTIFACT_TOO_LARGE", details: { limit: 100_000 } },
    });
  });
});

describe("a store that cannot take a media block", () => {
  it("answers the bounded ARTIFACT_STORE_UNAVAILABLE error, logs it, and inlines nothing", async () => {
    const logger = createRecordingLogger();
    const artifactStore = createMemoryStore({ maxBytes: 100_000 });
    const { call } = await setUp(
      { content: [image] },
      { mediaBytes: 1_000, artifactStore, logger },
    );
    const answer = (await call()) as CallToolResult;
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent).toMatchObject({
      error: { code: "ARTIFACT_STORE_UNAVAILABLE", details: { retryable: true } },
    });
    expect(JSON.stringify(answer)).not.toContain(image.data.slice(0, 100));
    expect(logger.records.map((record) => record.message)).toContain(
      "the artifact store failed to keep a media block over the media budget",
    );
  });
});

describe("media with structuredContent switched off", () => {
  it("sends server-filesystem's image alone, for clients that show structuredContent instead of content", async () => {
    const result = { content: [image], structuredContent: { content: [image] } };
    const { call } = await setUp(
      result,
      { includeOutputSchema: false, includeStructuredContent: false },
      true,
    );
    expect(await call()).toEqual({ content: [image] });
  });
});

import { createHash } from "node:crypto";
import {
  ARTIFACT_ID_PATTERN,
  BoundedEnvelopeSchema,
  BoundedErrorSchema,
} from "@bounded-mcp/contract";
import { analyzeDocument } from "@bounded-mcp/query-core";
import { createMemoryStore, isExpiredArtifact, type StoredArtifact } from "@bounded-mcp/stores";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { itemsPayload, itemsPayloadOfSize, jsonBytes, jsonTextResult } from "./support/fixtures.js";
import {
  closeAfterEach,
  connectLowLevelServer,
  createTestAdapter,
  TEST_NOW,
} from "./support/harness.js";

const MiB = 1024 * 1024;
const EXPIRES_AT = new Date(TEST_NOW + 24 * 60 * 60 * 1000).toISOString();

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

const track = closeAfterEach();

/** What the adapter's store serves for `id`: the live artifact, or null. */
async function liveStored(
  bounded: { store: { get(id: string): Promise<unknown> } },
  id: string,
): Promise<StoredArtifact | null> {
  const found = await bounded.store.get(id);
  return found === null || isExpiredArtifact(found) ? null : (found as StoredArtifact);
}

async function serve(
  result: () => CallToolResult,
  options: Parameters<typeof createTestAdapter>[0] = {},
) {
  const bounded = createTestAdapter(options);
  const connection = await connectLowLevelServer(bounded, { fixture: { result } });
  track(bounded, connection);
  const call = () =>
    connection.client.callTool({ name: "fixture", arguments: {} }) as Promise<CallToolResult>;
  return { bounded, connection, call };
}

/** Checks the SPEC.md §2 invariants every envelope result has, and returns the envelope. */
function envelopeOf(result: CallToolResult) {
  const first = result.content[0];
  expect(first?.type).toBe("text");
  const text = first?.type === "text" ? first.text : "";
  expect(text).toBe(JSON.stringify(result.structuredContent));
  return BoundedEnvelopeSchema.parse(result.structuredContent);
}

describe("bounding a tool result", () => {
  it("returns a result at or under inlineBytes as the very same object", async () => {
    const bounded = createTestAdapter();
    const small = jsonTextResult(itemsPayload(3));
    expect(await bounded.boundResult(small)).toBe(small);
    const filler = 32_768 - jsonBytes({ content: [{ type: "text", text: "" }] });
    const exact: CallToolResult = { content: [{ type: "text", text: "x".repeat(filler) }] };
    expect(jsonBytes(exact)).toBe(32_768);
    expect(await bounded.boundResult(exact)).toBe(exact);
    const over: CallToolResult = { content: [{ type: "text", text: "x".repeat(filler + 1) }] };
    expect(await bounded.boundResult(over)).not.toBe(over);
    await bounded.dispose();
  });

  it("passes a small result through the wire unchanged", async () => {
    const small = jsonTextResult(itemsPayload(3));
    const { call } = await serve(() => small);
    expect(await call()).toEqual(small);
  });

  it("turns a 5 MiB JSON result into an envelope under previewBytes with a resource link", async () => {
    const payload = itemsPayloadOfSize(5 * MiB);
    const text = JSON.stringify(payload);
    const { call } = await serve(() => jsonTextResult(payload));
    const result = await call();
    const envelope = envelopeOf(result);
    expect(jsonBytes(envelope)).toBeLessThanOrEqual(8192);
    expect(Buffer.byteLength(text)).toBeGreaterThan(5 * MiB);
    const { id } = envelope.responseMeta.artifact;
    expect(id).toMatch(ARTIFACT_ID_PATTERN);
    expect(id.length).toBeGreaterThanOrEqual(22);
    const analysis = analyzeDocument(payload);
    expect(envelope.success).toBe(true);
    expect(envelope.responseMeta).toEqual({
      contractVersion: 3,
      truncated: true,
      complete: false,
      truncationReason: "size_limit",
      serializedBytes: Buffer.byteLength(text),
      ...(envelope.responseMeta.sourceTruncated === undefined ? {} : { sourceTruncated: false }),
      ...(envelope.responseMeta.warning === undefined
        ? {}
        : { warning: envelope.responseMeta.warning }),
      artifact: {
        id,
        uri: `artifact://bounded-mcp/${id}`,
        mediaType: "application/json",
        byteLength: Buffer.byteLength(text),
        sha256: sha256(text),
        expiresAt: EXPIRES_AT,
        queryTool: "query_response_artifact",
        responseRoot: analysis.responseRoot,
        primaryPaths: analysis.primaryPaths,
        sourceTruncated: false,
      },
    });
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([
      { type: "text", text: JSON.stringify(envelope) },
      {
        type: "resource_link",
        uri: `artifact://bounded-mcp/${id}`,
        name: `artifact-${id}`,
        title: "Stored tool result (descriptor)",
        description: `Descriptor of the stored result (${Buffer.byteLength(text)} bytes, application/json); read its values with query_response_artifact.`,
        mimeType: "application/json",
      },
    ]);
  });

  it("builds the same envelope bytes for the same payload and caller", async () => {
    const payload = itemsPayloadOfSize(200_000);
    const { call } = await serve(() => jsonTextResult(payload));
    const first = await call();
    const second = await call();
    expect(second).toEqual(first);
  });

  it("stores pretty-printed JSON text exactly as received", async () => {
    const payload = itemsPayloadOfSize(100_000);
    const text = JSON.stringify(payload, null, 2);
    const { bounded, call } = await serve(() => ({ content: [{ type: "text", text }] }));
    const envelope = envelopeOf(await call());
    const { artifact } = envelope.responseMeta;
    expect(artifact).toMatchObject({
      mediaType: "application/json",
      byteLength: Buffer.byteLength(text),
      sha256: sha256(text),
    });
    const stored = await liveStored(bounded, artifact.id);
    expect(stored?.body.toString("utf8")).toBe(text);
  });

  it("stores text that is not JSON as text/plain, queried as lines", async () => {
    const text = Array.from({ length: 5000 }, (_, index) => `log line ${index}: all good`).join(
      "\n",
    );
    const { bounded, call } = await serve(() => ({ content: [{ type: "text", text }] }));
    const envelope = envelopeOf(await call());
    const { artifact } = envelope.responseMeta;
    expect(artifact).toMatchObject({
      mediaType: "text/plain",
      responseRoot: "/lines",
      sha256: sha256(text),
    });
    expect((await liveStored(bounded, artifact.id))?.body.toString("utf8")).toBe(text);
  });

  it("stores structuredContent when the result carries it, and keeps _meta", async () => {
    const payload = itemsPayloadOfSize(100_000);
    const { bounded, call } = await serve(() => ({
      content: [{ type: "text", text: "summary: many items" }],
      structuredContent: payload,
      _meta: { "example.com/trace": "abc" },
    }));
    const result = await call();
    const envelope = envelopeOf(result);
    expect(result._meta).toEqual({ "example.com/trace": "abc" });
    const stored = await liveStored(bounded, envelope.responseMeta.artifact.id);
    expect(stored?.body.toString("utf8")).toBe(JSON.stringify(payload));
  });

  it("stores the text when structuredContent only mirrors it, so a JSON file stays queryable as JSON", async () => {
    const fileText = JSON.stringify(itemsPayloadOfSize(100_000), null, 2);
    const { bounded, call } = await serve(() => ({
      content: [{ type: "text", text: fileText }],
      structuredContent: { content: fileText },
    }));
    const envelope = envelopeOf(await call());
    const { artifact } = envelope.responseMeta;
    expect(artifact).toMatchObject({ mediaType: "application/json", sha256: sha256(fileText) });
    expect((await liveStored(bounded, artifact.id))?.body.toString("utf8")).toBe(fileText);
    expect(artifact.primaryPaths.length).toBeGreaterThan(0);
  });

  it("keeps structuredContent with more than the mirrored text as the payload", async () => {
    const fileText = JSON.stringify(itemsPayloadOfSize(100_000));
    const structured = { content: fileText, path: "/data/items.json" };
    const { bounded, call } = await serve(() => ({
      content: [{ type: "text", text: fileText }],
      structuredContent: structured,
    }));
    const { artifact } = envelopeOf(await call()).responseMeta;
    expect((await liveStored(bounded, artifact.id))?.body.toString("utf8")).toBe(
      JSON.stringify(structured),
    );
  });

  it("stores the other blocks as {content} with blobs replaced by descriptors, never inlined, and passes the image on", async () => {
    const image = Buffer.alloc(200_000, 7);
    const imageBlock = {
      type: "image" as const,
      data: image.toString("base64"),
      mimeType: "image/png",
    };
    const { bounded, call } = await serve(() => ({
      content: [
        { type: "text", text: "a chart" },
        imageBlock,
        {
          type: "resource",
          resource: {
            uri: "file:///blob.bin",
            mimeType: "application/octet-stream",
            blob: Buffer.alloc(200_000, 8).toString("base64"),
          },
        },
      ],
    }));
    const result = await call();
    const envelope = envelopeOf(result);
    expect(result.content.map((block) => block.type)).toEqual(["text", "resource_link", "image"]);
    expect(result.content[2]).toEqual(imageBlock);
    expect(JSON.stringify(result).includes(Buffer.alloc(100, 8).toString("base64"))).toBe(false);
    const stored = await liveStored(bounded, envelope.responseMeta.artifact.id);
    expect(JSON.parse(stored?.body.toString("utf8") ?? "null")).toEqual({
      content: [
        { type: "text", text: "a chart" },
        {
          type: "resource",
          resource: {
            uri: "file:///blob.bin",
            mimeType: "application/octet-stream",
            byteLength: 200_000,
            sha256: createHash("sha256").update(Buffer.alloc(200_000, 8)).digest("hex"),
            binaryOmitted: true,
          },
        },
      ],
    });
  });

  it("bounds an isError result too and keeps isError and the payload's own success", async () => {
    const payload = { ...itemsPayloadOfSize(100_000), success: false };
    const { call } = await serve(() => ({ ...jsonTextResult(payload), isError: true }));
    const result = await call();
    expect(result.isError).toBe(true);
    expect(envelopeOf(result).success).toBe(false);
  });

  it("takes success from the payload even when the result is not an error", async () => {
    const payload = { ...itemsPayloadOfSize(100_000), success: false };
    const { call } = await serve(() => jsonTextResult(payload));
    const result = await call();
    expect(result.isError).toBeUndefined();
    expect(envelopeOf(result).success).toBe(false);
  });

  it("refuses a payload over artifactMaxBytes with a bounded ARTIFACT_TOO_LARGE error", async () => {
    const payload = itemsPayloadOfSize(2 * MiB);
    const text = JSON.stringify(payload);
    const { call } = await serve(() => jsonTextResult(payload), {
      artifactMaxBytes: MiB,
    });
    const result = await call();
    expect(result.isError).toBe(true);
    expect(result.content).toHaveLength(1);
    expect(result.content[0]).toEqual({
      type: "text",
      text: JSON.stringify(result.structuredContent),
    });
    const error = BoundedErrorSchema.parse(result.structuredContent);
    expect(jsonBytes(error)).toBeLessThanOrEqual(8192);
    expect({ ...error, data: "preview" }).toEqual({
      success: false,
      data: "preview",
      responseMeta: {
        contractVersion: 3,
        truncated: true,
        complete: false,
        truncationReason: "size_limit",
        serializedBytes: Buffer.byteLength(text),
        ...(error.responseMeta.warning === undefined
          ? {}
          : { warning: error.responseMeta.warning }),
      },
      error: {
        code: "ARTIFACT_TOO_LARGE",
        message: `The tool result is ${Buffer.byteLength(text)} bytes, over the artifact limit of ${MiB} bytes, so it was neither stored nor inlined. Call the tool again with narrower arguments (a filter, a smaller page, fewer fields).`,
        details: { byteLength: Buffer.byteLength(text), limit: MiB },
      },
      ...(error.guidance === undefined ? {} : { guidance: error.guidance }),
    });
  });

  it("answers a body over one principal's store share with ARTIFACT_TOO_LARGE naming quotaPerPrincipal", async () => {
    const payload = itemsPayloadOfSize(200_000);
    const artifactStore = createMemoryStore({ maxBytes: 1_000_000, shareBytes: 100_000 });
    const { call } = await serve(() => jsonTextResult(payload), { artifactStore });
    const result = await call();
    const error = BoundedErrorSchema.parse(result.structuredContent);
    const byteLength = Buffer.byteLength(JSON.stringify(payload));
    expect({ isError: result.isError, error: error.error }).toEqual({
      isError: true,
      error: {
        code: "ARTIFACT_TOO_LARGE",
        message: `The tool result is ${byteLength} bytes, over this caller's share of the artifact store of 100000 bytes, so it was neither stored nor inlined. Call the tool again with narrower arguments (a filter, a smaller page, fewer fields).`,
        details: { byteLength, limit: 100_000, limitName: "quotaPerPrincipal" },
      },
    });
    expect(jsonBytes(error)).toBeLessThanOrEqual(8192);
  });

  it("answers a store that cannot take the payload with a retryable ARTIFACT_STORE_UNAVAILABLE", async () => {
    const payload = itemsPayloadOfSize(200_000);
    const artifactStore = createMemoryStore();
    // A disposed store fails every call with STORE_UNAVAILABLE, as a backend outage does.
    await artifactStore.dispose();
    const { call } = await serve(() => jsonTextResult(payload), { artifactStore });
    const result = await call();
    expect(result.isError).toBe(true);
    const error = BoundedErrorSchema.parse(result.structuredContent);
    expect(error.error).toEqual({
      code: "ARTIFACT_STORE_UNAVAILABLE",
      message:
        "The artifact store could not keep this oversized tool result, so it was neither stored nor inlined. Retry the call.",
      details: { retryable: true },
    });
    expect(jsonBytes(error)).toBeLessThanOrEqual(8192);
    expect(JSON.stringify(result).includes('"item-000500"')).toBe(false);
  });

  it("counts calls, bounded calls and bytes per tool", async () => {
    const payload = itemsPayloadOfSize(100_000);
    let big = false;
    const { bounded, call } = await serve(() =>
      big ? jsonTextResult(payload) : jsonTextResult({ ok: true }),
    );
    await call();
    big = true;
    const bigResult = await call();
    const fixture = bounded.stats().tools.fixture;
    expect(fixture).toMatchObject({ calls: 2, boundedCalls: 1, queries: 0 });
    expect(fixture?.bytesSentToModel).toBe(
      jsonBytes(jsonTextResult({ ok: true })) + jsonBytes(bigResult),
    );
    expect(fixture?.bytesReceived).toBeGreaterThan(Buffer.byteLength(JSON.stringify(payload)));
  });
});

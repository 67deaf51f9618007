import { BoundedEnvelopeSchema, QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { PreviewHook, PreviewInput } from "../src/bounding/bound-result.js";
import { createPreviewOverride } from "../src/bounding/preview-override.js";
import { createRecordingLogger } from "../src/testing/recording-logger.js";
import { itemsPayloadOfSize, jsonTextResult } from "./support/fixtures.js";
import { closeAfterEach, connectLowLevelServer, createTestAdapter } from "./support/harness.js";

const CUT_MARKER = "[Response truncated due to size limits]";

const track = closeAfterEach();

async function serve(
  result: CallToolResult,
  preview: PreviewHook,
  logger = createRecordingLogger(),
) {
  const bounded = createTestAdapter({ preview, logger });
  const connection = await connectLowLevelServer(bounded, { fixture: { result: () => result } });
  track(bounded, connection);
  const call = async (name: string, argumentsValue: Record<string, unknown> = {}) =>
    (await connection.client.callTool({ name, arguments: argumentsValue })) as CallToolResult;
  return { call };
}

describe("a preview hook", () => {
  it("reshapes only the preview when it returns a plain value, even one with a preview key", async () => {
    const seen: PreviewInput[] = [];
    const { call } = await serve(jsonTextResult(itemsPayloadOfSize(100_000)), (input) => {
      seen.push({ ...input, document: typeof input.document });
      return { preview: "a plain object" };
    });
    const envelope = BoundedEnvelopeSchema.parse((await call("fixture")).structuredContent);
    expect(seen).toEqual([
      { toolName: "fixture", document: "object", mediaType: "application/json" },
    ]);
    expect(envelope.data).toEqual({ preview: "a plain object" });
    expect(envelope.responseMeta.artifact.primaryPaths).toEqual(["/data/items"]);
    expect(envelope.responseMeta.artifact.sourceTruncated).toBe(false);
  });

  it("falls back to the generic preview and logs a warning when the hook throws", async () => {
    const logger = createRecordingLogger();
    const { call } = await serve(
      jsonTextResult(itemsPayloadOfSize(100_000)),
      () => {
        throw new Error("hook bug");
      },
      logger,
    );
    const result = await call("fixture");
    expect(result.isError).toBeUndefined();
    const envelope = BoundedEnvelopeSchema.parse(result.structuredContent);
    expect(envelope.responseMeta.artifact.primaryPaths).toEqual(["/data/items"]);
    expect(envelope.data).toMatchObject({ success: true, data: { total: expect.any(Number) } });
    expect(logger.records.filter((record) => record.level === "warn")).toEqual([
      {
        level: "warn",
        message: "preview hook failed; using the generic preview",
        fields: { tool: "fixture", error: "hook bug" },
      },
    ]);
  });

  it("sets primaryPaths and keeps the generic preview with an override that gives no preview", async () => {
    const { call } = await serve(jsonTextResult(itemsPayloadOfSize(100_000)), () =>
      createPreviewOverride({
        primaryPaths: ["/data/items", "/data/total", "/a", "/b", "/c", "/d", "/e"],
      }),
    );
    const envelope = BoundedEnvelopeSchema.parse((await call("fixture")).structuredContent);
    expect(envelope.responseMeta.artifact.primaryPaths).toEqual([
      "/data/items",
      "/data/total",
      "/a",
      "/b",
      "/c",
      "/d",
    ]);
    expect(envelope.data).toMatchObject({ success: true, data: { total: expect.any(Number) } });
  });

  it("sets responseRoot from an override, so a query without responsePath starts there", async () => {
    const { call } = await serve(jsonTextResult(itemsPayloadOfSize(100_000)), () =>
      createPreviewOverride({ responseRoot: "/data/items" }),
    );
    const envelope = BoundedEnvelopeSchema.parse((await call("fixture")).structuredContent);
    expect(envelope.responseMeta.artifact.responseRoot).toBe("/data/items");
    const query = await call(QUERY_TOOL_NAME, {
      artifactId: envelope.responseMeta.artifact.id,
      responsePath: "/1",
      fields: ["id"],
    });
    expect(query.structuredContent).toMatchObject({
      response: { id: "item-000001" },
      responseMeta: { inferredResponsePath: "/data/items/1" },
    });
  });

  it("flags a text payload cut by its source as sourceTruncated, in the envelope and in queries", async () => {
    const text = `${'{\n  "nodes": [\n'.padEnd(60_000, " ")}\n\n${CUT_MARKER}`;
    const { call } = await serve({ content: [{ type: "text", text }] }, ({ document }) => {
      const lines = (document as { lines: string[] }).lines;
      return createPreviewOverride({
        preview: { cut: true, lines: lines.length },
        sourceTruncated: lines.at(-1) === CUT_MARKER,
      });
    });
    const envelope = BoundedEnvelopeSchema.parse((await call("fixture")).structuredContent);
    expect(envelope.data).toEqual({ cut: true, lines: 5 });
    expect(envelope.responseMeta.sourceTruncated).toBe(true);
    expect(envelope.responseMeta.artifact).toMatchObject({
      mediaType: "text/plain",
      responseRoot: "/lines",
      sourceTruncated: true,
    });
    const query = await call(QUERY_TOOL_NAME, {
      artifactId: envelope.responseMeta.artifact.id,
      responsePath: "/lines/4",
    });
    expect(query.structuredContent).toMatchObject({
      response: CUT_MARKER,
      responseMeta: { sourceTruncated: true },
    });
  });
});

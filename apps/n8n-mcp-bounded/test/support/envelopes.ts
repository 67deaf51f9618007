import { createHash } from "node:crypto";
import { BoundedEnvelopeSchema, QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "vitest";

/** The default previewBytes: every bounded envelope's compact JSON fits in it. */
export const PREVIEW_BYTES = 8192;

/** The single text of a result (n8n-mcp answers with one text block). */
export function textOf(result: CallToolResult): string {
  const [first] = result.content;
  if (first?.type !== "text") throw new Error("expected one text block");
  return first.text;
}

/** The sha256 (hex) of a text's UTF-8 bytes. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * The bounded envelope of a result, after checking the SPEC.md §2 invariants: the same JSON in
 * structuredContent and the first text block, under previewBytes, and a resource link to
 * `artifact://n8n-mcp/<id>` after it.
 */
export function envelopeOf(result: CallToolResult) {
  const text = textOf(result);
  expect(text).toBe(JSON.stringify(result.structuredContent));
  expect(Buffer.byteLength(text)).toBeLessThanOrEqual(PREVIEW_BYTES);
  const envelope = BoundedEnvelopeSchema.parse(result.structuredContent);
  const { id } = envelope.responseMeta.artifact;
  expect(result.content.slice(1)).toEqual([
    expect.objectContaining({ type: "resource_link", uri: `artifact://n8n-mcp/${id}` }),
  ]);
  return envelope;
}

/** The artifact reference a bounded envelope of `text` (as n8n-mcp sent it) must carry. */
export function expectedArtifact(
  text: string,
  facts: {
    mediaType: "application/json" | "text/plain";
    responseRoot: string;
    primaryPaths: string[];
    sourceTruncated: boolean;
  },
) {
  return {
    id: expect.stringMatching(/^[A-Za-z0-9_-]{20,100}$/),
    uri: expect.stringMatching(/^artifact:\/\/n8n-mcp\//),
    byteLength: Buffer.byteLength(text),
    sha256: sha256(text),
    expiresAt: expect.any(String),
    queryTool: QUERY_TOOL_NAME,
    ...facts,
  };
}

/** A query_response_artifact call's structuredContent (success or error envelope). */
export type QueryEnvelope = {
  response?: unknown;
  shape?: unknown;
  responseMeta: Record<string, unknown> & { nextCursor: string | null; totalCount?: number };
};

/** Runs a query and returns its structuredContent, checking it equals the text block. */
export async function query(
  call: (name: string, argumentsValue: Record<string, unknown>) => Promise<CallToolResult>,
  argumentsValue: Record<string, unknown>,
): Promise<QueryEnvelope> {
  const result = await call(QUERY_TOOL_NAME, argumentsValue);
  expect(textOf(result)).toBe(JSON.stringify(result.structuredContent));
  return result.structuredContent as QueryEnvelope;
}

/** Follows nextCursor until the last page and returns every page's response items. */
export async function queryAllPages(
  call: (name: string, argumentsValue: Record<string, unknown>) => Promise<CallToolResult>,
  argumentsValue: Record<string, unknown>,
): Promise<{ items: unknown[]; pages: number }> {
  const items: unknown[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: QueryEnvelope = await query(call, {
      ...argumentsValue,
      ...(cursor === null ? {} : { cursor }),
    });
    expect(page.response).toEqual(expect.any(Array));
    items.push(...(page.response as unknown[]));
    cursor = page.responseMeta.nextCursor;
    pages++;
  } while (cursor !== null);
  return { items, pages };
}

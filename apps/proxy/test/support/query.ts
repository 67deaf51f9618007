import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect } from "vitest";

/** A bounded envelope as the tests read it (the SPEC.md §2 shape). */
export interface Envelope {
  success: boolean;
  data: unknown;
  responseMeta: {
    serializedBytes: number;
    artifact: { id: string; uri?: string; byteLength: number; sha256: string };
  };
  guidance: string;
}

/** The structuredContent of a tool result, checked to equal the JSON of its first text block. */
export function structured<T = Record<string, unknown>>(result: unknown): T {
  const { structuredContent, content } = result as {
    structuredContent: T;
    content: { type: string; text: string }[];
  };
  expect(JSON.parse(content[0]!.text)).toEqual(structuredContent);
  return structuredContent;
}

/** Calls query_response_artifact and returns its envelope (success or error alike). */
export async function query(
  client: Client,
  artifactId: string,
  request: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { responseMeta: Record<string, unknown> }> {
  const result = await client.callTool({
    name: QUERY_TOOL_NAME,
    arguments: { artifactId, ...request },
  });
  return structured(result);
}

/** The envelope fields every oversized result carries, with the volatile ones matched by type. */
export function expectedEnvelope(byteLength: number, data: unknown): unknown {
  return {
    success: true,
    data,
    responseMeta: {
      contractVersion: 3,
      truncated: true,
      complete: false,
      truncationReason: "size_limit",
      serializedBytes: byteLength,
      sourceTruncated: false,
      artifact: {
        id: expect.stringMatching(/^[A-Za-z0-9_-]{20,100}$/),
        uri: expect.stringMatching(/^artifact:\/\/bounded-mcp\/[A-Za-z0-9_-]{20,100}$/),
        mediaType: "application/json",
        byteLength,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        expiresAt: expect.any(String),
        queryTool: QUERY_TOOL_NAME,
        responseRoot: expect.any(String),
        primaryPaths: expect.any(Array),
        sourceTruncated: false,
      },
    },
    guidance: expect.stringContaining(QUERY_TOOL_NAME),
  };
}

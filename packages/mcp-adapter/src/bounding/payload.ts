import { createHash } from "node:crypto";
import type { ArtifactMediaType } from "@bounded-mcp/contract";
import { textToDocument } from "@bounded-mcp/query-core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** What gets stored for an oversized result (CONTRACT-v3.md §2 "What is stored"). */
export interface Payload {
  /** The stored bytes: the text exactly as received, or the compact JSON of a value. */
  text: string;
  mediaType: ArtifactMediaType;
  /** The document queries run on: the parsed JSON, or `{"lines": [...]}` for text. */
  document: unknown;
}

type ContentBlock = CallToolResult["content"][number];

function binaryFacts(base64: string): { byteLength: number; sha256: string } {
  const bytes = Buffer.from(base64, "base64");
  return { byteLength: bytes.byteLength, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/**
 * A binary block (image, audio, embedded resource blob) replaced by a descriptor of it: type,
 * MIME type, decoded size and sha256. Binary data is never stored in an artifact nor inlined;
 * every other block is kept as received.
 */
export function describeBinaryBlock(block: ContentBlock): unknown {
  if (block.type === "image" || block.type === "audio") {
    return {
      type: block.type,
      mimeType: block.mimeType,
      ...binaryFacts(block.data),
      binaryOmitted: true,
    };
  }
  if (block.type === "resource" && "blob" in block.resource) {
    const { uri, mimeType, blob } = block.resource;
    return {
      type: "resource",
      resource: { uri, mimeType, ...binaryFacts(blob), binaryOmitted: true },
    };
  }
  return block;
}

function textPayload(text: string): Payload {
  try {
    return { text, mediaType: "application/json", document: JSON.parse(text) };
  } catch {
    return { text, mediaType: "text/plain", document: textToDocument(text) };
  }
}

/**
 * Picks the payload of an oversized result: structuredContent when present (its compact JSON);
 * else the single text block as received (JSON, pretty-printed or not, or plain text); else
 * `{"content": [...]}` with binary blocks replaced by their descriptors.
 */
export function extractPayload(result: CallToolResult, structuredJson?: string): Payload {
  if (result.structuredContent !== undefined) {
    return {
      text: structuredJson ?? JSON.stringify(result.structuredContent),
      mediaType: "application/json",
      document: result.structuredContent,
    };
  }
  const content = result.content ?? [];
  const [only] = content;
  if (content.length === 1 && only?.type === "text") return textPayload(only.text);
  const document = { content: content.map(describeBinaryBlock) };
  return { text: JSON.stringify(document), mediaType: "application/json", document };
}

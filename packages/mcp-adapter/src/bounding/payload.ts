import { createHash } from "node:crypto";
import type { ArtifactMediaType } from "@bounded-mcp/contract";
import { parseJsonExact, textToDocument } from "@bounded-mcp/query-core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** What gets stored for an oversized result (SPEC.md §2 "What is stored"). */
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

/**
 * The text an oversized result stores, picked before anything is parsed (so the bounder can
 * encode and hash it while the heap holds no parsed document yet). `parsed` is set when the
 * payload is a value already in hand (structuredContent, several content blocks).
 */
export interface PayloadText {
  text: string;
  parsed?: Omit<Payload, "text"> | undefined;
}

/**
 * The text of a result whose structuredContent only repeats its single text block, e.g.
 * server-filesystem's `{content: "<file text>"}`: such structuredContent adds no structure, so
 * the text is the payload and a JSON file stays queryable as JSON. Undefined otherwise.
 */
function mirroredText(result: CallToolResult): string | undefined {
  const structured = result.structuredContent;
  const content = result.content ?? [];
  const [only] = content;
  if (structured === undefined || content.length !== 1 || only?.type !== "text") return undefined;
  const values = Object.values(structured);
  return values.length === 1 && values[0] === only.text ? only.text : undefined;
}

/**
 * Picks the text of an oversized result's payload: the text when structuredContent only mirrors
 * it (see mirroredText); else the compact JSON of structuredContent when present; else the single text block as received (JSON, pretty-printed or not, or plain text);
 * else the compact JSON of `{"content": [...]}` with binary blocks replaced by their descriptors.
 */
export function selectPayloadText(result: CallToolResult, structuredJson?: string): PayloadText {
  const mirrored = mirroredText(result);
  if (mirrored !== undefined) return { text: mirrored };
  if (result.structuredContent !== undefined) {
    return {
      text: structuredJson ?? JSON.stringify(result.structuredContent),
      parsed: { mediaType: "application/json", document: result.structuredContent },
    };
  }
  const content = result.content ?? [];
  const [only] = content;
  if (content.length === 1 && only?.type === "text") return { text: only.text };
  const document = { content: content.map(describeBinaryBlock) };
  return { text: JSON.stringify(document), parsed: { mediaType: "application/json", document } };
}

/**
 * The payload of a picked text: its value when already in hand, else the text parsed as JSON, or
 * as `{"lines": [...]}` (text/plain) when it is not JSON. Inexact number literals are kept as
 * written (parseJsonExact, SPEC.md §10).
 */
export function parsePayload(source: PayloadText): Payload {
  const { text, parsed } = source;
  if (parsed !== undefined) return { text, ...parsed };
  try {
    return { text, mediaType: "application/json", document: parseJsonExact(text) };
  } catch {
    return { text, mediaType: "text/plain", document: textToDocument(text) };
  }
}

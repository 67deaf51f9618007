import { createHash } from "node:crypto";
import type { ArtifactMediaType } from "@bounded-mcp/contract";
import { mayHoldInexactNumbers, parseJsonExact, textToDocument } from "@bounded-mcp/query-core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { receivedJsonOf } from "./received-json.js";
import { serializeJson } from "./serialize-json.js";

/** What gets stored for an oversized result (SPEC.md §2 "What is stored"). */
export interface Payload {
  /** The stored bytes: the text exactly as received, or the compact JSON of a value. */
  text: string;
  mediaType: ArtifactMediaType;
  /** The document queries run on: the parsed JSON, or `{"lines": [...]}` for text. */
  document: unknown;
  /** `"json-string"` when `text` is the JSON string of a text holding lone surrogates. */
  bodyEncoding?: "json-string" | undefined;
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
  /**
   * The text is a string as the upstream gave it (a text block), so it may hold lone surrogates;
   * text serialized here (JSON.stringify) or read from the wire (UTF-8 decoded) never does.
   */
  asReceived?: boolean | undefined;
  /**
   * `parsed` is JSON.parse's value of `text` (structuredContent kept as received on the wire):
   * it stands unless `text` may hold inexact number literals (SPEC.md §10), which parsePayload
   * then reads from `text` exactly, so the cache answers as the stored bytes do.
   */
  exactFromText?: boolean | undefined;
}

/** A lone surrogate code unit: a high one not followed by a low one, or a low one not after a high. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Whether `text` holds no lone surrogate (String.prototype.isWellFormed, Node 20+). */
function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** `text` with every lone surrogate written as a `\uXXXX` escape, as JSON.stringify writes it. */
export function escapeLoneSurrogates(text: string): string {
  return text.replace(LONE_SURROGATE, (unit) => `\\u${unit.charCodeAt(0).toString(16)}`);
}

/**
 * A text received as a string (a text block), as it can be stored (SPEC.md §10): UTF-8 writes a
 * lone surrogate as U+FFFD, so the text read back from the store would differ from the one
 * cached. JSON gets each lone surrogate written as a `\uXXXX` escape (a lone surrogate in valid
 * JSON is always inside a string, so the value is the same); text that is not JSON is stored as
 * the JSON string of itself (JSON.stringify escapes them too), marked
 * `bodyEncoding: "json-string"` so the read path decodes it (see parseJsonStringBody).
 */
function escapedText(text: string): PayloadText {
  try {
    const document: unknown = parseJsonExact(text);
    return {
      text: escapeLoneSurrogates(text),
      parsed: { mediaType: "application/json", document },
    };
  } catch {
    return {
      text: JSON.stringify(text),
      parsed: {
        mediaType: "text/plain",
        document: textToDocument(text),
        bodyEncoding: "json-string",
      },
    };
  }
}

/**
 * The picked text as it can be stored: itself, unless it came as a string from the upstream
 * (`asReceived`) and holds lone surrogates (isWellFormed), then escaped (see escapedText). The
 * bounder calls it only when the encoded bytes hold U+FFFD (see encode-payload.ts), so a payload
 * without one never pays the isWellFormed scan.
 */
export function storablePayloadText(source: PayloadText): PayloadText {
  if (source.asReceived !== true || isWellFormed(source.text)) return source;
  return escapedText(source.text);
}

/**
 * The document of a stored body marked `bodyEncoding: "json-string"` (see escapedText): the
 * JSON string decoded, then read as text (`{"lines": [...]}`), lone surrogates and all.
 */
export function parseJsonStringBody(body: Uint8Array): unknown {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8");
  return textToDocument(JSON.parse(text) as string);
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

/** The compact JSON of structuredContent at any depth (serializeJson: no stack overflow). */
function structuredText(structuredContent: Record<string, unknown>): string {
  return serializeJson(structuredContent).text ?? "null";
}

/**
 * Picks the text of an oversized result's payload: the text when structuredContent only mirrors
 * it (see mirroredText); else structuredContent when present, as the text it arrived as on the
 * wire when its transport kept it (see receivedJsonOf), else as its compact JSON; else the single
 * text block as received (JSON, pretty-printed or not, or plain text);
 * else the compact JSON of `{"content": [...]}` with binary blocks replaced by their descriptors.
 * A text block's text is marked `asReceived` (see storablePayloadText).
 */
export function selectPayloadText(result: CallToolResult, structuredJson?: string): PayloadText {
  const mirrored = mirroredText(result);
  if (mirrored !== undefined) return { text: mirrored, asReceived: true };
  if (result.structuredContent !== undefined) {
    const received = receivedJsonOf(result.structuredContent);
    return {
      text: received ?? structuredJson ?? structuredText(result.structuredContent),
      parsed: { mediaType: "application/json", document: result.structuredContent },
      ...(received === undefined ? {} : { exactFromText: true }),
    };
  }
  const content = result.content ?? [];
  const [only] = content;
  if (content.length === 1 && only?.type === "text") return { text: only.text, asReceived: true };
  const document = { content: content.map(describeBinaryBlock) };
  return { text: JSON.stringify(document), parsed: { mediaType: "application/json", document } };
}

/**
 * The payload of a picked text: its value when already in hand, else the text parsed as JSON, or
 * as `{"lines": [...]}` (text/plain) when it is not JSON. Inexact number literals are kept as
 * written (parseJsonExact, SPEC.md §10); a caller that knows whether the text may hold a
 * candidate (mayHoldInexactNumbers, e.g. tested on the hashing thread) passes it as `mayHold`,
 * and JSON.parse as `parse` when it does not. Without `mayHold`, an `exactFromText` source is
 * tested here.
 */
export function parsePayload(
  source: PayloadText,
  parse: (text: string) => unknown = parseJsonExact,
  mayHold?: boolean,
): Payload {
  const { text, parsed } = source;
  if (parsed !== undefined) {
    if (source.exactFromText !== true || !(mayHold ?? mayHoldInexactNumbers(text))) {
      return { text, ...parsed };
    }
    return { text, mediaType: "application/json", document: parseJsonExact(text) };
  }
  try {
    return { text, mediaType: "application/json", document: parse(text) };
  } catch {
    return { text, mediaType: "text/plain", document: textToDocument(text) };
  }
}

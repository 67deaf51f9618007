import { createHash } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

type ContentBlock = CallToolResult["content"][number];

/** An image or audio block: what a model reads as media, not as its base64 text. */
export type MediaBlock = Extract<ContentBlock, { type: "image" | "audio" }>;

/** One media block of a result and whether it fits the media budget. */
export interface MediaEntry {
  /** Its index in `content`. */
  index: number;
  block: MediaBlock;
  /** Within the media budget: passed on as received; else stored and linked. */
  fits: boolean;
}

/** A result split for bounding: its media (SPEC.md §2 "Media") and everything else. */
export interface MediaSplit {
  media: MediaEntry[];
  /** The content blocks that are not media, in order. */
  rest: ContentBlock[];
}

/** An image or audio block whose data is a string (anything else is left to the JSON rules). */
export function isMediaBlock(block: ContentBlock): block is MediaBlock {
  return (block.type === "image" || block.type === "audio") && typeof block.data === "string";
}

/**
 * Splits a result's content into media and the rest, and decides which media fit `mediaBytes`:
 * in content order, a block fits when its base64 data (counted in characters, which are bytes:
 * base64 is ASCII) fits what the blocks before it left of the budget; a block that does not fit
 * is stored and the next ones are still tried. Undefined when the result has no media block, so
 * such results are bounded exactly as before.
 */
export function splitMedia(result: CallToolResult, mediaBytes: number): MediaSplit | undefined {
  const content = result.content ?? [];
  if (!content.some(isMediaBlock)) return undefined;
  const media: MediaEntry[] = [];
  const rest: ContentBlock[] = [];
  let left = mediaBytes;
  content.forEach((block, index) => {
    if (!isMediaBlock(block)) {
      rest.push(block);
      return;
    }
    const fits = block.data.length <= left;
    if (fits) left -= block.data.length;
    media.push({ index, block, fits });
  });
  return { media, rest };
}

/** What a mirrored or unlinked media block is replaced by in JSON: its facts, never its data. */
export interface MediaFacts {
  type: MediaBlock["type"];
  mimeType: string;
  byteLength: number;
  sha256: string;
  binaryOmitted: true;
}

/** The decoded size and sha256 of a media block, as the JSON payload describes it. */
export function describeMedia(block: MediaBlock): MediaFacts {
  const bytes = Buffer.from(block.data, "base64");
  return {
    type: block.type,
    mimeType: block.mimeType,
    byteLength: bytes.byteLength,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    binaryOmitted: true,
  };
}

/** structuredContent with the strings that repeat media data replaced by the media's facts. */
export interface UnmirroredStructure {
  /** The compact JSON of structuredContent, each mirror replaced by its MediaFacts. */
  json: string;
  /** The media entries whose data structuredContent repeats. */
  mirrored: Set<MediaEntry>;
}

/**
 * Finds where structuredContent repeats media data (a string equal to an image or audio block's
 * `data`, as server-filesystem's `read_media_file` sends `{content: [<the image block>]}`) and
 * writes it with each such string replaced by the media's facts. Such mirrors are the media's
 * bytes a second time, so they count against neither budget (SPEC.md §2 "Media"). Undefined when
 * there is no structuredContent or it repeats no media, or when it is nested too deep for
 * JSON.stringify (it is then bounded as JSON, as before).
 */
export function unmirrorStructure(
  structured: CallToolResult["structuredContent"],
  media: readonly MediaEntry[],
): UnmirroredStructure | undefined {
  if (structured === undefined) return undefined;
  const byData = new Map<string, MediaEntry>();
  for (const entry of media) if (!byData.has(entry.block.data)) byData.set(entry.block.data, entry);
  const mirrored = new Set<MediaEntry>();
  const facts = new Map<MediaEntry, MediaFacts>();
  let json: string;
  try {
    json = JSON.stringify(structured, (_key, value: unknown) => {
      if (typeof value !== "string") return value;
      const entry = byData.get(value);
      if (entry === undefined) return value;
      mirrored.add(entry);
      let described = facts.get(entry);
      if (described === undefined) {
        described = describeMedia(entry.block);
        facts.set(entry, described);
      }
      return described;
    });
  } catch {
    return undefined;
  }
  return mirrored.size === 0 ? undefined : { json, mirrored };
}

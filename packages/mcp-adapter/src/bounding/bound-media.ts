import { createHash } from "node:crypto";
import type { Limits } from "@bounded-mcp/contract";
import type { KeyRing } from "@bounded-mcp/query-core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ArtifactService } from "../artifacts/artifact-service.js";
import type { ScopeContext, ScopeFinder } from "../artifacts/scope.js";
import { ADAPTER_SETTINGS } from "../config/adapter-settings.js";
import { deriveMediaArtifactId, mediaResourceLink } from "../descriptors/media-artifact.js";
import { errorMessage } from "../error-message.js";
import type { Logger } from "../logging/logger.js";
import type { BoundingFailure } from "./bounded-error.js";
import { type MeasuredTexts, measureResult } from "./measure.js";
import { describeMedia, type MediaBlock, type MediaSplit, unmirrorStructure } from "./media.js";

/** The default media budget (the `mediaBytes` setting): 5 MiB of base64, what current model APIs take per image. */
export const DEFAULT_MEDIA_BYTES = ADAPTER_SETTINGS.mediaBytes.default;

type ContentBlock = CallToolResult["content"][number];

/** What bounding a result with media needs from the bounder. */
export interface MediaBoundingParts {
  /** Base64 characters of media one result passes on as received. */
  mediaBytes: number;
  limits: Pick<Limits, "inlineBytes" | "artifactMaxBytes">;
  artifacts: ArtifactService;
  keyRing: KeyRing;
  findScope: ScopeFinder;
  /** `artifact://<namespace>/<id>`; undefined when resource links are off. */
  artifactUri: ((id: string) => string) | undefined;
  logger: Logger;
  /** Bounds the rest of the result as JSON (the envelope), whatever its size. */
  boundRest: (rest: CallToolResult, measured: MeasuredTexts) => Promise<CallToolResult>;
  /** The bounded error result of a failure (ARTIFACT_TOO_LARGE, ARTIFACT_STORE_UNAVAILABLE). */
  fail: (failure: BoundingFailure, byteLength: number) => CallToolResult;
}

/** The outcome: the result to send, and whether anything in it was stored. */
export interface MediaBounded {
  result: CallToolResult;
  bounded: boolean;
}

/**
 * Stores one media block over the budget (its JSON as received, so resources/read can give it
 * back byte for byte) and returns the resource_link that replaces it. With resource links off
 * there is no way to read it back, so it is only described (a text block with its facts).
 */
async function storeMedia(
  parts: MediaBoundingParts,
  block: MediaBlock,
  context: ScopeContext,
): Promise<ContentBlock | BoundingFailure> {
  if (parts.artifactUri === undefined) {
    return { type: "text", text: JSON.stringify(describeMedia(block)) };
  }
  const body = Buffer.from(JSON.stringify(block));
  if (body.byteLength > parts.limits.artifactMaxBytes) {
    return {
      code: "ARTIFACT_TOO_LARGE",
      byteLength: body.byteLength,
      limit: parts.limits.artifactMaxBytes,
    };
  }
  const sha256 = createHash("sha256").update(body).digest("hex");
  const scope = await parts.findScope(context);
  const id = deriveMediaArtifactId(parts.keyRing, scope.hash, sha256);
  try {
    await parts.artifacts.save({
      id,
      scopeHash: scope.hash,
      body,
      sha256FromBody: true,
      sha256,
      mediaType: "application/json",
      document: block,
      responseRoot: "",
      primaryPaths: [],
      sourceTruncated: false,
      toolName: context.toolName,
    });
  } catch (error) {
    parts.logger.error("the artifact store failed to keep a media block over the media budget", {
      tool: context.toolName,
      byteLength: body.byteLength,
      error: errorMessage(error),
    });
    return { code: "ARTIFACT_STORE_UNAVAILABLE" };
  }
  return mediaResourceLink(parts.artifactUri(id), id, block, parts.mediaBytes);
}

function isFailure(value: ContentBlock | BoundingFailure): value is BoundingFailure {
  return "code" in value;
}

/**
 * Bounds a result that has media blocks (SPEC.md §2 "Media"). Media within the media budget are
 * passed on as received; media over it are stored and replaced, in place, by a resource_link.
 * The rest (the other blocks, and structuredContent with the strings that repeat media data
 * replaced by the media's facts) is measured against inlineBytes as any result is:
 * - nothing stored and the rest fits: the result is returned unchanged (the same object),
 *   structuredContent included as the upstream sent it;
 * - the rest fits and structuredContent repeats no stored media: the result with the links in
 *   place of the stored media, everything else as received;
 * - else (the rest is over inlineBytes, or structuredContent repeats media that was stored, so
 *   it cannot be passed on): the rest is bounded into the envelope as today (its stored JSON has
 *   the media's facts where their data was), and the media follow the envelope's blocks.
 * A media block over artifactMaxBytes or a store failure gives the bounded error.
 */
export async function boundWithMedia(
  result: CallToolResult,
  split: MediaSplit,
  context: ScopeContext,
  parts: MediaBoundingParts,
): Promise<MediaBounded> {
  const unmirrored = unmirrorStructure(result.structuredContent, split.media);
  const rest: CallToolResult = { ...result, content: split.rest };
  if (unmirrored !== undefined) {
    rest.structuredContent = JSON.parse(unmirrored.json) as Record<string, unknown>;
  }
  const measurement = measureResult(rest, parts.limits.inlineBytes);
  const over = split.media.filter((entry) => !entry.fits);
  if (over.length === 0 && !measurement.oversized) return { result, bounded: false };
  const media: ContentBlock[] = [];
  for (const entry of split.media) {
    if (entry.fits) {
      media.push(entry.block);
      continue;
    }
    const stored = await storeMedia(parts, entry.block, context);
    if (isFailure(stored)) {
      const byteLength =
        stored.code === "ARTIFACT_TOO_LARGE" ? stored.byteLength : entry.block.data.length;
      return { result: parts.fail(stored, byteLength), bounded: true };
    }
    media.push(stored);
  }
  const mirrorsStored = over.some((entry) => unmirrored?.mirrored.has(entry) === true);
  if (measurement.oversized || mirrorsStored) {
    const bounded = await parts.boundRest(rest, measurement);
    return { result: { ...bounded, content: [...bounded.content, ...media] }, bounded: true };
  }
  const content = [...(result.content ?? [])];
  split.media.forEach((entry, position) => {
    content[entry.index] = media[position] as ContentBlock;
  });
  return { result: { ...result, content }, bounded: true };
}

import {
  type ArtifactRef,
  type BoundedEnvelope,
  type BoundedError,
  type Limits,
  QUERY_TOOL_NAME,
} from "@bounded-mcp/contract";
import {
  analyzeDocument,
  createBoundedEnvelope,
  type KeyRing,
  mayHoldInexactNumbers,
  parseJsonExact,
  parseJsonExactScanned,
  TEXT_RESPONSE_ROOT,
} from "@bounded-mcp/query-core";
import { type StagedBody, StoreError } from "@bounded-mcp/stores";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { deriveArtifactId } from "../artifacts/artifact-id.js";
import type { ArtifactService } from "../artifacts/artifact-service.js";
import type { ScopeContext, ScopeFinder } from "../artifacts/scope.js";
import { errorMessage } from "../error-message.js";
import type { Logger } from "../logging/logger.js";
import type { StatsCollector } from "../stats/stats-collector.js";
import { boundWithMedia, DEFAULT_MEDIA_BYTES } from "./bound-media.js";
import { type BoundingFailure, buildBoundedError } from "./bounded-error.js";
import { currentToolName, isAlreadyBounded, rememberBounded } from "./current-tool.js";
import { encodeStorable, startHashing } from "./encode-payload.js";
import { exactResultJson } from "./exact-result-json.js";
import { type MeasuredTexts, measureResult } from "./measure.js";
import { splitMedia } from "./media.js";
import { type Payload, type PayloadText, parsePayload, selectPayloadText } from "./payload.js";
import { resolvePreview } from "./preview-override.js";
import { dropReceivedJson } from "./received-json.js";
import { type RedactHook, redactPayloadText } from "./redact-payload.js";

/** What a preview hook receives: the parsed payload of one oversized result. */
export interface PreviewInput {
  toolName: string | undefined;
  document: unknown;
  mediaType: Payload["mediaType"];
}

/**
 * Reshapes a payload for the preview (an n8n workflow as its node list, say); return undefined
 * for the generic preview. The returned value is compacted to fit previewBytes like any other,
 * and must be deterministic (no clock, no randomness) so prompt caches stay valid. Return
 * `createPreviewOverride({preview?, primaryPaths?, sourceTruncated?, responseRoot?})` to also set
 * the artifact's primaryPaths, sourceTruncated or responseRoot. It runs before the payload is stored.
 */
export type PreviewHook = (input: PreviewInput) => unknown;

/**
 * The hook's reshaped preview, or undefined (the generic preview) when there is no hook or it
 * throws: a broken preview hook must never cost the caller a result, so its error is logged once
 * per call and bounding goes on.
 */
function runPreviewHook(dependencies: BounderDependencies, input: PreviewInput): unknown {
  if (dependencies.preview === undefined) return undefined;
  try {
    return dependencies.preview(input);
  } catch (error) {
    dependencies.logger.warn("preview hook failed; using the generic preview", {
      tool: input.toolName,
      error: errorMessage(error),
    });
    return undefined;
  }
}

/** Per-call facts for bounding: the caller (scope) and, optionally, the tool and its wire size. */
export interface BoundContext extends ScopeContext {
  /**
   * The size the upstream actually sent, when known (a relay measures the raw message); used
   * for stats and the pass-through decision instead of the in-process measurement.
   */
  receivedBytes?: number | undefined;
}

/** Bounds one tool result; see `createBounder`. */
export type BoundResult = (
  result: CallToolResult,
  context?: BoundContext,
) => Promise<CallToolResult>;

/** What the bounder needs; all of it built once per adapter. */
export interface BounderDependencies {
  artifacts: ArtifactService;
  keyRing: KeyRing;
  findScope: ScopeFinder;
  limits: Limits;
  /**
   * Base64 characters of image and audio blocks one result passes on as received (SPEC.md §2
   * "Media"); default 5 MiB.
   */
  mediaBytes?: number | undefined;
  /** `artifact://<namespace>/<id>`; undefined when resource links are off. */
  artifactUri: ((id: string) => string) | undefined;
  preview?: PreviewHook | undefined;
  /** Rewrites an oversized payload before it is stored or previewed (see RedactHook). */
  redact?: RedactHook | undefined;
  /**
   * The store loses its artifacts when this process exits (the memory store): envelopes then say
   * so rather than promise expiresAt. Default false.
   */
  ephemeralStore?: boolean | undefined;
  logger: Logger;
  stats: StatsCollector;
}

/**
 * A store's QUOTA_EXCEEDED (one body over a principal's share or the whole cap) as the
 * ARTIFACT_TOO_LARGE failure naming that limit: it is not retryable, unlike a store outage.
 */
function quotaRefusal(
  error: unknown,
  byteLength: number,
): Extract<BoundingFailure, { code: "ARTIFACT_TOO_LARGE" }> | undefined {
  if (!StoreError.isInstance(error) || error.code !== "QUOTA_EXCEEDED") return undefined;
  if (error.limit === undefined) return undefined;
  const limitName = error.limitOf === "share" ? "quotaPerPrincipal" : "quotaBytes";
  return { code: "ARTIFACT_TOO_LARGE", byteLength, limit: error.limit, limitName };
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

function payloadSuccess(document: unknown, isError: boolean): boolean {
  if (typeof document === "object" && document !== null && !Array.isArray(document)) {
    const own = (document as Record<string, unknown>).success;
    if (typeof own === "boolean") return own;
  }
  return !isError;
}

function envelopeResult(
  source: CallToolResult,
  structured: BoundedEnvelope | BoundedError,
  isError: boolean,
  link: CallToolResult["content"][number] | undefined,
): CallToolResult {
  const { text, structuredContent } = exactResultJson(structured);
  const content: CallToolResult["content"] = [{ type: "text", text }];
  if (link !== undefined) content.push(link);
  return {
    ...(source._meta === undefined ? {} : { _meta: source._meta }),
    content,
    structuredContent,
    ...(isError ? { isError: true } : {}),
  };
}

function resourceLink(uri: string, ref: ArtifactRef): CallToolResult["content"][number] {
  return {
    type: "resource_link",
    uri,
    name: `artifact-${ref.id}`,
    title: "Stored tool result (descriptor)",
    description: `Descriptor of the stored result (${ref.byteLength} bytes, ${ref.mediaType}); read its values with ${QUERY_TOOL_NAME}.`,
    mimeType: "application/json",
  };
}

/** A payload's bytes being hashed, and handed to the store when it can take them early. */
interface StoreEncoding {
  /** The text the bytes encode (encodeStorable's). */
  source: PayloadText;
  byteLength: number;
  sha256: Promise<string>;
  /** EncodingPayload.mayHoldInexactNumbers. */
  mayHoldInexactNumbers?: Promise<boolean | undefined>;
  /** The bytes, for save() to put: unset when the store staged them (`staged` holds them). */
  body?: Buffer;
  /** What the store's stage() returned: the store writes the bytes while the payload is parsed. */
  staged?: StagedBody;
}

/** A payload whose bytes (escaped, when they had to be) are over the byte cap: never staged. */
interface OversizedEncoding {
  source: PayloadText;
  oversizedBytes: number;
}

/**
 * encodeStorable of `picked`; bytes over `maxBytes` go no further (OversizedEncoding), others
 * are staged in the store when it can take them, then hashed (startHashing): staged first, so a
 * store that writes them on the hashing thread (the fs store with writeOnHashingThread) has the
 * write queued before the hash, and one thread does both. Once staged, nothing returned refers to
 * the bytes (nor does any frame of the caller's: they are only ever held here), so when the store
 * and the hashing thread let go of them (fs: once written and hashed) the garbage collections of
 * the payload's parse free them.
 */
function encodeAndStage(
  picked: PayloadText,
  byteLength: number,
  maxBytes: number,
  dependencies: Pick<BounderDependencies, "artifacts">,
): StoreEncoding | OversizedEncoding {
  const { source, body } = encodeStorable(picked, byteLength);
  if (body.byteLength > maxBytes) return { source, oversizedBytes: body.byteLength };
  const staged = dependencies.artifacts.stage(body);
  const hashing = startHashing(body, source.text);
  const found: StoreEncoding = {
    source,
    byteLength: body.byteLength,
    sha256: hashing.sha256,
    ...(hashing.mayHoldInexactNumbers === undefined
      ? {}
      : { mayHoldInexactNumbers: hashing.mayHoldInexactNumbers }),
  };
  if (staged === undefined) found.body = body;
  else found.staged = staged;
  return found;
}

/**
 * Creates the bounding engine (SPEC.md §1, §2): a result at or under inlineBytes is
 * returned unchanged (the same object); a larger one is stored exactly as received and replaced
 * by the bounded envelope, identical in structuredContent and as compact JSON text, followed by a
 * resource_link when links are on. isError and `_meta` are kept. A payload over artifactMaxBytes
 * or a store failure gives a bounded error result instead; the payload is never inlined.
 */
export function createBounder(dependencies: BounderDependencies): BoundResult {
  const { limits, stats, logger } = dependencies;

  const fail = (
    source: CallToolResult,
    failure: BoundingFailure,
    payload: Payload | undefined,
    serializedBytes: number,
  ): CallToolResult => {
    const structured = buildBoundedError({
      failure,
      document: payload?.document,
      hasDocument: payload !== undefined,
      serializedBytes,
      previewBytes: limits.previewBytes,
    });
    return envelopeResult(source, structured, true, undefined);
  };

  const bound = async (
    result: CallToolResult,
    context: BoundContext,
    measured: MeasuredTexts,
  ): Promise<CallToolResult> => {
    const redacted = await redactPayloadText(
      dependencies.redact,
      selectPayloadText(result, measured),
      { toolName: context.toolName, isError: result.isError === true },
    );
    if (!redacted.ok) {
      logger.error("an oversized result was refused: redaction failed", {
        tool: context.toolName,
        error:
          redacted.detail === undefined
            ? redacted.problem
            : `${redacted.problem}: ${redacted.detail}`,
      });
      const failure = {
        code: "ARTIFACT_STORE_UNAVAILABLE",
        redactionProblem: redacted.problem,
      } as const;
      return fail(result, failure, undefined, redacted.byteLength);
    }
    const picked = redacted.source;
    const tooLarge = (byteLength: number, source: PayloadText) => {
      const failure = {
        code: "ARTIFACT_TOO_LARGE" as const,
        byteLength,
        limit: limits.artifactMaxBytes,
      };
      return fail(result, failure, parsePayload(source), byteLength);
    };
    const byteLength = Buffer.byteLength(picked.text);
    if (byteLength > limits.artifactMaxBytes) return tooLarge(byteLength, picked);
    // Encoded once, before the parse (the Buffer's external memory may start a garbage
    // collection, cheap while the heap holds no parsed document yet); a large payload is hashed
    // on a helper thread while this one parses, and a store that can (fs) writes the bytes
    // meanwhile (encodeAndStage). A text block with lone surrogates is encoded again, escaped
    // (SPEC.md §10, encodeStorable), and may then be larger.
    const encoding = encodeAndStage(picked, byteLength, limits.artifactMaxBytes, dependencies);
    if ("oversizedBytes" in encoding) return tooLarge(encoding.oversizedBytes, encoding.source);
    const staged = encoding.staged;
    try {
      return await boundEncoded(result, context, encoding);
    } finally {
      // Settled by the save in boundEncoded; dropped when bounding stopped before it.
      await staged?.discard();
    }
  };

  const boundEncoded = async (
    result: CallToolResult,
    context: BoundContext,
    encoding: StoreEncoding,
  ): Promise<CallToolResult> => {
    const { source, staged, byteLength } = encoding;
    // A large payload's candidate test runs on the hashing thread (SPEC.md §10): parse plainly
    // meanwhile, and again exactly only when it may hold an inexact literal (or is unknown).
    const tested = encoding.mayHoldInexactNumbers;
    // A smaller text that will be parsed here is tested here, once, and parsed by the answer
    // (what parseJsonExact does inside); a value already in hand is not tested.
    const inline =
      tested === undefined && (source.parsed === undefined || source.exactFromText === true)
        ? mayHoldInexactNumbers(source.text)
        : undefined;
    let payload =
      tested !== undefined
        ? parsePayload(source, JSON.parse, false)
        : inline === undefined
          ? parsePayload(source)
          : parsePayload(source, inline ? parseJsonExactScanned : JSON.parse, inline);
    const body = encoding.body;
    const sha256 = await encoding.sha256;
    // The verdict on these very bytes (source.text is what `body` encodes), kept with them so a
    // cold read need not test again (ArtifactMeta.exactCandidates); unknown when no test ran or
    // the thread failed.
    const verdict = tested === undefined ? inline : await tested;
    if (tested !== undefined && verdict !== false) {
      payload = parsePayload(source, parseJsonExact, true);
    }
    // The text is encoded and parsed: the document (structuredContent itself when it arrived as
    // parsed) must not keep the upstream's line alive in the parse cache.
    dropReceivedJson(result.structuredContent);
    const scope = await dependencies.findScope(context);
    const id = deriveArtifactId(dependencies.keyRing, scope.hash, sha256);
    const analysis = analyzeDocument(payload.document);
    const { preview, primaryPaths, sourceTruncated, itemKeysShown, ...resolved } = resolvePreview(
      runPreviewHook(dependencies, {
        toolName: context.toolName,
        document: payload.document,
        mediaType: payload.mediaType,
      }),
      analysis,
    );
    const responseRoot =
      payload.mediaType === "text/plain"
        ? TEXT_RESPONSE_ROOT
        : (resolved.responseRoot ?? analysis.responseRoot);
    let expiresAt: number;
    try {
      const meta = await dependencies.artifacts.save({
        id,
        scopeHash: scope.hash,
        body,
        byteLength,
        sha256FromBody: true,
        staged,
        sha256,
        mediaType: payload.mediaType,
        bodyEncoding: payload.bodyEncoding,
        exactCandidates: payload.mediaType === "application/json" ? verdict : undefined,
        document: payload.document,
        responseRoot,
        primaryPaths,
        sourceTruncated,
        toolName: context.toolName,
      });
      expiresAt = meta.expiresAt;
    } catch (error) {
      const refusal = quotaRefusal(error, byteLength);
      if (refusal !== undefined) {
        logger.warn("the artifact store refused an oversized result over its byte limit", {
          tool: context.toolName,
          byteLength,
          limit: refusal.limit,
          limitName: refusal.limitName,
        });
        return fail(result, refusal, payload, byteLength);
      }
      logger.error("the artifact store failed to keep an oversized result", {
        tool: context.toolName,
        byteLength,
        error: errorMessage(error),
      });
      return fail(result, { code: "ARTIFACT_STORE_UNAVAILABLE" }, payload, byteLength);
    }
    const uri = dependencies.artifactUri?.(id);
    const artifact: ArtifactRef = {
      id,
      ...(uri === undefined ? {} : { uri }),
      mediaType: payload.mediaType,
      byteLength,
      sha256,
      expiresAt: new Date(expiresAt).toISOString(),
      queryTool: QUERY_TOOL_NAME,
      responseRoot,
      primaryPaths,
      sourceTruncated,
    };
    const envelope = createBoundedEnvelope({
      document: payload.document,
      artifact,
      success: payloadSuccess(payload.document, result.isError === true),
      previewBytes: limits.previewBytes,
      ...(preview === undefined ? {} : { preview }),
      itemKeysShown,
      ephemeralStore: dependencies.ephemeralStore ?? false,
    });
    const link = uri === undefined ? undefined : resourceLink(uri, artifact);
    return envelopeResult(result, envelope, result.isError === true, link);
  };

  const measureAndBound = async (
    result: CallToolResult,
    context: BoundContext,
  ): Promise<CallToolResult> => {
    const measurement = measureResult(result, limits.inlineBytes);
    const received = context.receivedBytes ?? measurement.bytes;
    const tool = context.toolName ?? "unknown";
    if (received <= limits.inlineBytes && !measurement.oversized) {
      stats.recordCall(tool, {
        bytesReceived: received,
        bytesSentToModel: measurement.bytes,
        bounded: false,
      });
      return result;
    }
    const bounded = await bound(result, context, measurement);
    stats.recordCall(tool, {
      bytesReceived: received,
      bytesSentToModel: jsonBytes(bounded),
      bounded: true,
    });
    return bounded;
  };

  const mediaBytes = dependencies.mediaBytes ?? DEFAULT_MEDIA_BYTES;
  const boundMedia = async (
    result: CallToolResult,
    context: BoundContext,
  ): Promise<CallToolResult | undefined> => {
    const split = splitMedia(result, mediaBytes);
    if (split === undefined) return undefined;
    const outcome = await boundWithMedia(result, split, context, {
      ...dependencies,
      mediaBytes,
      boundRest: (rest, measured) => bound(rest, context, measured),
      fail: (failure, byteLength) => fail(result, failure, undefined, byteLength),
    });
    const received = jsonBytes(result);
    stats.recordCall(context.toolName ?? "unknown", {
      bytesReceived: context.receivedBytes ?? received,
      bytesSentToModel: outcome.bounded ? jsonBytes(outcome.result) : received,
      bounded: outcome.bounded,
    });
    return outcome.result;
  };

  return async (result, given = {}) => {
    if (isAlreadyBounded(result)) return result;
    const context =
      given.toolName === undefined ? { ...given, toolName: currentToolName() } : given;
    const output = (await boundMedia(result, context)) ?? (await measureAndBound(result, context));
    rememberBounded(output);
    return output;
  };
}

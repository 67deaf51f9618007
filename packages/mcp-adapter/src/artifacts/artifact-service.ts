import type { ArtifactMediaType } from "@bounded-mcp/contract";
import { parseJsonExact, parseJsonExactScanned, textToDocument } from "@bounded-mcp/query-core";
import {
  type ArtifactMeta,
  type ArtifactStore,
  canStage,
  type ExpiredArtifact,
  isExpiredArtifact,
  type StagedBody,
} from "@bounded-mcp/stores";
import { OFF_THREAD_STORED_TEST_MIN_BYTES } from "../bounding/encode-payload.js";
import { testInexactOffThread } from "../bounding/hash-off-thread.js";
import { parseJsonStringBody } from "../bounding/payload.js";
import { type Logger, SILENT_LOGGER } from "../logging/logger.js";
import type { ParseCache } from "./parse-cache.js";

/** A stored artifact, parsed, as the query tool uses it. */
export interface OpenArtifact {
  meta: ArtifactMeta;
  /** The parsed payload: JSON as parsed, text as `{"lines": [...]}`. */
  document: unknown;
  /** The tool that produced it, when this process bounded it (for per-tool stats). */
  toolName?: string | undefined;
}

/** What `open` found: the artifact, or why the caller may not have it. */
export type OpenResult =
  | { ok: true; artifact: OpenArtifact; cacheHit: boolean }
  | { ok: false; reason: "unknown" | "expired" };

/**
 * Answers a query from an artifact's stored bytes without parsing them whole, or returns
 * undefined to have them parsed (and cached) instead.
 */
export type AnswerFromBytes<T> = (body: Uint8Array, meta: ArtifactMeta) => T | undefined;

/** What `open` found when given an AnswerFromBytes: also the answer it gave from the bytes. */
export type OpenOrAnswerResult<T> =
  | OpenResult
  | { ok: true; answered: T; meta: ArtifactMeta; cacheHit: false };

/** What `save` needs: the payload exactly as received, parsed, and what analysis found. */
export interface SaveInput {
  id: string;
  scopeHash: string;
  /**
   * The bytes to store; may be unset with `staged`, which holds them (the caller may then have
   * let them go), `byteLength` giving their length.
   */
  body?: Uint8Array | undefined;
  /** The bytes' length; only needed when `body` is unset. */
  byteLength?: number;
  /**
   * The caller computed `sha256` from `body` in this process: a staged body is then committed
   * without the store hashing it again (a put always hashes).
   */
  sha256FromBody?: boolean;
  sha256: string;
  /** What `stage(body)` returned for these bytes: saved by committing it. */
  staged?: StagedBody | undefined;
  mediaType: ArtifactMediaType;
  /** ArtifactMeta.bodyEncoding: `"json-string"` for a text stored as the JSON string of itself. */
  bodyEncoding?: "json-string" | undefined;
  /**
   * ArtifactMeta.exactCandidates: what the inexact-candidate test said of exactly `body`, when
   * it ran (SPEC.md §10); a cold read then picks its parser from it without testing again.
   */
  exactCandidates?: boolean | undefined;
  document: unknown;
  responseRoot: string;
  primaryPaths: string[];
  sourceTruncated: boolean;
  toolName?: string | undefined;
}

/**
 * Artifacts over a store, with the parse cache in front and caller scope enforced. Another
 * scope's artifact is reported exactly like an unknown one. Store failures are thrown as they
 * come (StoreError) so callers can answer ARTIFACT_STORE_UNAVAILABLE.
 */
export interface ArtifactService {
  /**
   * Hands a payload's bytes to the store before their metadata is known, when the store has the
   * staging capability (the fs store starts writing them, so the write overlaps parsing; the
   * memory store keeps them without a copy); pass the result to `save` or discard it. The caller
   * never changes `body` again.
   */
  stage(body: Uint8Array): StagedBody | undefined;
  /** Stores the payload and its metadata (replacing the same id: a repeat refreshes expiry). */
  save(input: SaveInput): Promise<ArtifactMeta>;
  /**
   * The parsed artifact for this scope, from the parse cache when it is there. Given
   * `answerFromBytes`, an artifact that is not in the cache is first offered to it as stored
   * bytes: its answer is returned as `answered` (nothing is parsed whole or cached); when it
   * declines, the same bytes are parsed and cached.
   */
  open<T = never>(
    id: string,
    scopeHash: string,
    answerFromBytes?: AnswerFromBytes<T>,
  ): Promise<OpenOrAnswerResult<T>>;
  /** The metadata for this scope, or why not; never reads or parses the body. */
  head(
    id: string,
    scopeHash: string,
  ): Promise<{ ok: true; meta: ArtifactMeta } | { ok: false; reason: "unknown" | "expired" }>;
}

/**
 * Parses a stored body into the document the query engine reads, decoding it once without a
 * copy of the bytes. Decoded as UTF-8 into a V8 string: a latin1 decode of an ASCII body was
 * measured slower overall (Node makes it an external string, and JSON.parse of it then pays
 * more garbage collection), see bench/. Inexact number literals are kept as written
 * (parseJsonExact, SPEC.md §10), so a cold read answers what the parse cache answers.
 */
export function parseStoredBody(body: Uint8Array, mediaType: ArtifactMediaType): unknown {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8");
  return mediaType === "application/json" ? parseJsonExact(text) : textToDocument(text);
}

/** Stored JSON bodies of at least this many bytes are tested for inexact candidates off-thread. */
const OFF_THREAD_TEST_MIN_BYTES = OFF_THREAD_STORED_TEST_MIN_BYTES;

/**
 * parseStoredBody with the inexact-candidate test (SPEC.md §10) of a large JSON body run on the
 * hashing thread while this thread parses it plainly: the same document, the test off the
 * parse's path; parsed again exactly only when the body may hold an inexact literal, or the
 * thread is unavailable. Limits: the body is copied once into shared memory for the thread; a
 * body under OFF_THREAD_TEST_MIN_BYTES is parseStoredBody, the test on this thread.
 */
export async function parseStoredBodyOffThread(
  body: Uint8Array,
  mediaType: ArtifactMediaType,
): Promise<unknown> {
  if (mediaType !== "application/json" || body.byteLength < OFF_THREAD_TEST_MIN_BYTES) {
    return parseStoredBody(body, mediaType);
  }
  const tested = testInexactOffThread(body);
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8");
  const document: unknown = JSON.parse(text);
  return (await tested) === false ? document : parseJsonExact(text);
}

/**
 * The document of a stored body given its metadata (SPEC.md §10): a JSON body whose recorded
 * verdict (`exactCandidates`, the bounder's candidate test of these bytes) is false is plain
 * JSON.parse, one that is true goes straight to the exact parse; without a verdict (artifacts of
 * an older version, payloads the bounder did not test) the body is tested as before
 * (parseStoredBodyOffThread). Limits: the verdict is trusted as the store keeps it, under the
 * body's own integrity (the stores README and SECURITY.md say where that holds).
 */
export function parseStoredArtifact(
  body: Uint8Array,
  meta: Pick<ArtifactMeta, "mediaType" | "bodyEncoding" | "exactCandidates">,
): unknown {
  if (meta.bodyEncoding === "json-string") return parseJsonStringBody(body);
  if (meta.mediaType !== "application/json" || meta.exactCandidates === undefined) {
    return parseStoredBodyOffThread(body, meta.mediaType);
  }
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8");
  return meta.exactCandidates ? parseJsonExactScanned(text) : JSON.parse(text);
}

/**
 * Why an artifact the store does not serve is refused: "expired" while the store still knows it
 * expired (until it is swept, and for the store's grace period after), "unknown" otherwise; an
 * expired artifact of another scope is "unknown", like any other artifact of another scope.
 */
function refused(
  found: ExpiredArtifact | null,
  scopeHash: string,
): { ok: false; reason: "unknown" | "expired" } {
  return { ok: false, reason: found?.scopeHash === scopeHash ? "expired" : "unknown" };
}

/** Creates the artifact service of one adapter. */
export function createArtifactService(options: {
  store: ArtifactStore;
  cache: ParseCache<OpenArtifact>;
  ttlMs: number;
  clock: () => number;
  /** Where a query answered from the stored bytes is noted (debug); silent by default. */
  logger?: Logger;
}): ArtifactService {
  const { store, cache, clock } = options;
  const logger = options.logger ?? SILENT_LOGGER;
  const loading = new Map<string, Promise<OpenArtifact | ExpiredArtifact | null>>();

  const fromCache = (id: string, scopeHash: string) => {
    const cached = cache.peek(id);
    if (cached === undefined || cached.meta.scopeHash !== scopeHash) return undefined;
    if (cached.meta.expiresAt <= clock()) {
      cache.delete(id);
      return "expired" as const;
    }
    return cached;
  };

  const parsed = async (stored: {
    meta: ArtifactMeta;
    body: Uint8Array;
  }): Promise<OpenArtifact> => ({
    meta: stored.meta,
    document: await parseStoredArtifact(stored.body, stored.meta),
  });

  const load = (id: string): Promise<OpenArtifact | ExpiredArtifact | null> => {
    let pending = loading.get(id);
    if (pending === undefined) {
      pending = (async () => {
        const stored = await store.get(id);
        return stored === null || isExpiredArtifact(stored) ? stored : parsed(stored);
      })().finally(() => loading.delete(id));
      loading.set(id, pending);
    }
    return pending;
  };

  /**
   * Parses bytes already read into the cache once the current answer has gone out (the next turn
   * of the event loop), so the artifact's next queries hit the cache without reading it again; a
   * query of the id meanwhile joins this parse.
   */
  const parseLater = (id: string, stored: { meta: ArtifactMeta; body: Uint8Array }): void => {
    if (loading.has(id) || !cache.accepts(stored.meta.byteLength)) return;
    const pending = new Promise<OpenArtifact | ExpiredArtifact | null>((resolve) => {
      setImmediate(() => {
        parsed(stored).then(
          (artifact) => {
            cache.set(id, artifact, stored.meta.byteLength);
            resolve(artifact);
          },
          () => resolve(null),
        );
      });
    }).finally(() => loading.delete(id));
    loading.set(id, pending);
  };

  /**
   * Reads the stored bytes and offers them to `answerFromBytes`; parses them when it declines,
   * and in the background when it answered. A load already running for the id is joined instead.
   */
  const answerOrLoad = async <T>(
    id: string,
    answerFromBytes: AnswerFromBytes<T>,
  ): Promise<OpenArtifact | { answered: T; meta: ArtifactMeta } | ExpiredArtifact | null> => {
    if (loading.has(id)) return load(id);
    const stored = await store.get(id);
    if (stored === null || isExpiredArtifact(stored)) return stored;
    const answered = answerFromBytes(stored.body, stored.meta);
    if (answered === undefined) return parsed(stored);
    logger.debug("answered a query from the stored bytes without parsing the artifact", {
      artifactId: id,
      byteLength: stored.meta.byteLength,
    });
    parseLater(id, stored);
    return { answered, meta: stored.meta };
  };

  return {
    stage(body) {
      return canStage(store) ? store.stage(body) : undefined;
    },
    async save(input) {
      const byteLength = input.body?.byteLength ?? input.byteLength;
      if (byteLength === undefined || (input.body === undefined && input.staged === undefined)) {
        throw new TypeError("save needs the body, or a staged body and its byteLength");
      }
      const now = clock();
      const meta: ArtifactMeta = {
        id: input.id,
        scopeHash: input.scopeHash,
        mediaType: input.mediaType,
        byteLength,
        sha256: input.sha256,
        createdAt: now,
        expiresAt: now + options.ttlMs,
        responseRoot: input.responseRoot,
        primaryPaths: input.primaryPaths,
        sourceTruncated: input.sourceTruncated,
        contractVersion: 3,
        ...(input.bodyEncoding === undefined ? {} : { bodyEncoding: input.bodyEncoding }),
        ...(input.exactCandidates === undefined ? {} : { exactCandidates: input.exactCandidates }),
      };
      if (input.staged !== undefined) {
        await input.staged.commit(meta, { sha256FromBody: input.sha256FromBody === true });
      } else if (input.body !== undefined) await store.put(meta, input.body);
      cache.set(
        input.id,
        { meta, document: input.document, toolName: input.toolName },
        meta.byteLength,
      );
      return meta;
    },
    async open<T>(
      id: string,
      scopeHash: string,
      answerFromBytes?: AnswerFromBytes<T>,
    ): Promise<OpenOrAnswerResult<T>> {
      // Another caller's artifact is refused from metadata alone (the cache's, else the store's
      // head), never after reading and parsing its body: that would cost a full parse per attempt
      // and make "someone else's" measurably slower to refuse than "unknown".
      const peeked = cache.peek(id);
      if (peeked !== undefined && peeked.meta.scopeHash !== scopeHash) {
        return { ok: false, reason: "unknown" };
      }
      const cached = cache.get(id);
      if (cached !== undefined) {
        if (cached.meta.expiresAt > clock()) return { ok: true, artifact: cached, cacheHit: true };
        cache.delete(id);
        return { ok: false, reason: "expired" };
      }
      const meta = await store.head(id);
      if (meta === null || isExpiredArtifact(meta)) return refused(meta, scopeHash);
      if (meta.scopeHash !== scopeHash) return { ok: false, reason: "unknown" };
      const loaded =
        answerFromBytes === undefined ? await load(id) : await answerOrLoad(id, answerFromBytes);
      if (loaded === null || isExpiredArtifact(loaded)) return refused(loaded, scopeHash);
      if (loaded.meta.scopeHash !== scopeHash) return { ok: false, reason: "unknown" };
      if ("answered" in loaded) {
        return { ok: true, answered: loaded.answered, meta: loaded.meta, cacheHit: false };
      }
      cache.set(id, loaded, loaded.meta.byteLength);
      return { ok: true, artifact: loaded, cacheHit: false };
    },
    async head(id, scopeHash) {
      const cached = fromCache(id, scopeHash);
      if (cached === "expired") return { ok: false, reason: "expired" };
      if (cached !== undefined) return { ok: true, meta: cached.meta };
      const meta = await store.head(id);
      if (meta === null || isExpiredArtifact(meta)) return refused(meta, scopeHash);
      if (meta.scopeHash !== scopeHash) return { ok: false, reason: "unknown" };
      return { ok: true, meta };
    },
  };
}

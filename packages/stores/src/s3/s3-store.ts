import { PutObjectCommand, type S3Client, type S3ClientConfig } from "@aws-sdk/client-s3";
import { assertValidArtifactId } from "../artifact-id.js";
import { createExpiredMemory } from "../shared/expired-memory.js";
import { createLifecycle } from "../shared/lifecycle.js";
import { SILENT_STORE_LOGGER, type StoreLogger } from "../shared/logger.js";
import { checkPut, sha256Hex } from "../shared/meta.js";
import type { ArtifactStore, ExpiredArtifact, StoredArtifact, SweepResult } from "../types.js";
import { encodeObjectMetadata } from "./object-metadata.js";
import { createS3Client, runLimited } from "./s3-client.js";
import { createS3Objects } from "./s3-objects.js";

/** Options of `createS3Store`. */
export interface S3StoreOptions {
  /** The bucket; it must exist. */
  bucket: string;
  /** Key prefix of every artifact (default `bounded-mcp/`); the lifecycle rule filters on it. */
  prefix?: string;
  /** A client you configured yourself; the store then ignores the connection options below and never destroys it. */
  client?: S3Client;
  /** An S3-compatible endpoint (MinIO, R2, s3rver), e.g. `http://127.0.0.1:9000`. */
  endpoint?: string;
  /** Default: AWS_REGION, else AWS_DEFAULT_REGION, else `us-east-1` (R2 wants `auto`). */
  region?: string;
  credentials?: S3ClientConfig["credentials"];
  /** Path-style URLs (`endpoint/bucket/key`); most self-hosted services need it. */
  forcePathStyle?: boolean;
  /**
   * Bound on one attempt until its response starts, upload included, and on socket inactivity
   * while a body streams (default 5 000).
   */
  requestTimeoutMs?: number;
  /** Bound on opening a connection (default 3 000). */
  connectionTimeoutMs?: number;
  /**
   * Deadline of one S3 call, every attempt and backoff included, until its response starts
   * (default 10 000; a PutObject gets one more second per MiB of its body). It is an abort signal on
   * `client.send`, so it also bounds a client you passed in. A missed deadline fails the call with
   * STORE_UNAVAILABLE and logs one warning naming the operation and the deadline.
   */
  timeoutMs?: number;
  /** Attempts per call, retries included (default 3). */
  maxAttempts?: number;
  /** More S3Client settings (checksum modes for s3rver, a custom retry strategy); merged last. */
  clientConfig?: S3ClientConfig;
  /** Keys per ListObjectsV2 page in sweep (default 1000, the S3 maximum). */
  listPageSize?: number;
  /** Milliseconds since the epoch; decides expiry (default Date.now). */
  clock?: () => number;
  /** Where damaged objects are reported; silent by default. */
  logger?: StoreLogger;
  /**
   * How long an artifact this store's sweep removed still reads as expired rather than unknown,
   * in ms (default one hour; 0: not at all). Only this store instance remembers it, and only
   * objects whose scope is in their user metadata (not framed ones); an expired object not yet
   * deleted reads as expired on every replica.
   */
  expiredGraceMs?: number;
}

/** Default deadline of one S3 call, retries included: 10 s. */
export const DEFAULT_S3_TIMEOUT_MS = 10_000;
/** The S3 store's default key prefix. */
export const DEFAULT_S3_PREFIX = "bounded-mcp/";
const STORE = "s3";
/** The slowest upload a PutObject's deadline allows for: 1 MiB per second. */
const UPLOAD_BYTES_PER_SECOND = 1024 * 1024;
const SWEEP_CONCURRENCY = 8;

/**
 * A store in an S3 bucket (or any S3-compatible service: MinIO, R2, s3rver) that many replicas
 * share. One object per artifact under `prefix + id`, its metadata in the object's user metadata
 * (see object-metadata.ts for the 2 KiB fallback), so a put is one atomic PutObject and metadata
 * and body cannot disagree; reads also check size and sha256. Expiry is enforced on every read and
 * by `sweep` (ListObjectsV2 pages + HeadObject); in production add the bucket lifecycle rule from
 * the README so objects go even when no replica sweeps. There is no quota (a bucket has none).
 * Every backend failure is a StoreError named after the S3 operation, with the SDK error as cause.
 */
export function createS3Store(options: S3StoreOptions): ArtifactStore {
  const { bucket } = options;
  const prefix = options.prefix ?? DEFAULT_S3_PREFIX;
  const clock = options.clock ?? Date.now;
  const logger = options.logger ?? SILENT_STORE_LOGGER;
  const lifecycle = createLifecycle(STORE);
  const ownsClient = options.client === undefined;
  const client = options.client ?? createS3Client(options);
  const listPageSize = options.listPageSize ?? 1000;
  const timeoutMs = options.timeoutMs ?? DEFAULT_S3_TIMEOUT_MS;
  const objects = createS3Objects({
    client,
    bucket,
    prefix,
    clock,
    logger,
    listPageSize,
    timeoutMs,
  });
  const { keyOf, within, call, collect, damaged } = objects;
  const expiredMemory = createExpiredMemory(options.expiredGraceMs);

  /** A live artifact's metadata and body stream, after the checks every read makes first. */
  const open = (id: string, operation: string) => {
    lifecycle.assertOpen(operation);
    assertValidArtifactId(id, STORE, operation);
    return objects.open(id, operation);
  };

  return {
    name: STORE,
    capabilities: { persistent: true, shared: true, quota: false, staging: false },

    async put(meta, body) {
      lifecycle.assertOpen("put");
      const checked = checkPut(STORE, meta, body);
      const { metadata, header } = encodeObjectMetadata(checked);
      const payload = header === null ? body : Buffer.concat([header, body]);
      const command = new PutObjectCommand({
        Bucket: bucket,
        Key: keyOf(checked.id),
        Body: payload,
        ContentLength: payload.byteLength,
        ContentType: "application/octet-stream",
        Metadata: metadata,
      });
      await call("PutObject", () =>
        within(
          "PutObject",
          (abortSignal) => client.send(command, { abortSignal }),
          Math.ceil((payload.byteLength * 1_000) / UPLOAD_BYTES_PER_SECOND),
        ),
      );
      expiredMemory.forget(checked.id);
    },

    async get(id): Promise<StoredArtifact | ExpiredArtifact | null> {
      const opened = await open(id, "get");
      if (opened === null) return expiredMemory.recall(id, clock());
      if ("expired" in opened) return opened;
      const body = await collect("GetObject", opened.body);
      if (body.byteLength !== opened.meta.byteLength || sha256Hex(body) !== opened.meta.sha256) {
        return damaged(id, "get");
      }
      return { meta: opened.meta, body };
    },

    async head(id) {
      lifecycle.assertOpen("head");
      assertValidArtifactId(id, STORE, "head");
      return (await objects.head(id)) ?? expiredMemory.recall(id, clock());
    },

    async delete(id) {
      lifecycle.assertOpen("delete");
      assertValidArtifactId(id, STORE, "delete");
      await objects.remove(id);
      expiredMemory.forget(id);
    },

    async sweep(now): Promise<SweepResult> {
      lifecycle.assertOpen("sweep");
      const at = now ?? clock();
      const ids: string[] = [];
      for await (const { id } of objects.list()) ids.push(id);
      let removed = 0;
      let freedBytes = 0;
      await runLimited(ids, SWEEP_CONCURRENCY, async (id) => {
        const freed = await objects.deleteIfExpired(id, at);
        if (freed === null) return;
        if (freed.expired !== null) expiredMemory.remember(freed.expired, at);
        removed += 1;
        freedBytes += freed.byteLength;
      });
      return { removed, freedBytes };
    },

    async dispose() {
      if (!lifecycle.markDisposed()) return;
      if (ownsClient) client.destroy();
    },
  };
}

import { pipeline, type Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { assertValidArtifactId, isValidArtifactId } from "../artifact-id.js";
import { createLifecycle } from "../shared/lifecycle.js";
import { SILENT_STORE_LOGGER, type StoreLogger } from "../shared/logger.js";
import { checkMetaForBody, isExpired, sha256Hex } from "../shared/meta.js";
import { readPrefix } from "../shared/read-prefix.js";
import { createVerifyingStream } from "../shared/verifying-stream.js";
import { StoreError } from "../store-error.js";
import type {
  ArtifactMeta,
  ArtifactStore,
  StoredArtifact,
  StreamedArtifact,
  SweepResult,
} from "../types.js";
import {
  type DecodedMetadata,
  decodeFramedHeader,
  decodeObjectMetadata,
  encodeObjectMetadata,
} from "./object-metadata.js";
import { createS3Client, isNotFound, runLimited } from "./s3-client.js";

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
  /** Default `us-east-1` (R2 wants `auto`). */
  region?: string;
  credentials?: S3ClientConfig["credentials"];
  /** Path-style URLs (`endpoint/bucket/key`); most self-hosted services need it. */
  forcePathStyle?: boolean;
  /** Bound on one request until the response starts, upload included, and on socket inactivity (default 30 000). */
  requestTimeoutMs?: number;
  /** Bound on opening a connection (default 3 000). */
  connectionTimeoutMs?: number;
  /** Attempts per call, retries included (default 3). */
  maxAttempts?: number;
  /** More S3Client settings (checksum modes for s3rver, a custom retry strategy); merged last. */
  clientConfig?: S3ClientConfig;
  /** Keys per ListObjectsV2 page in sweep and usage (default 1000, the S3 maximum). */
  listPageSize?: number;
  /** Milliseconds since the epoch; decides expiry (default Date.now). */
  clock?: () => number;
  /** Where damaged objects are reported; silent by default. */
  logger?: StoreLogger;
}

/** The S3 store's default key prefix. */
export const DEFAULT_S3_PREFIX = "bounded-mcp/";
const STORE = "s3";
const SWEEP_CONCURRENCY = 8;

interface OpenedObject {
  meta: ArtifactMeta;
  /** The body only (any header already read off). */
  body: Readable;
}

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
  const keyOf = (id: string) => `${prefix}${id}`;

  const call = async <T>(operation: string, send: () => Promise<T>): Promise<T> => {
    try {
      return await send();
    } catch (error) {
      throw new StoreError({ code: "STORE_UNAVAILABLE", store: STORE, operation, cause: error });
    }
  };

  const damaged = (id: string, operation: string): null => {
    logger.warn(`[stores:${STORE}] ${operation}: skipped a damaged object`, {
      bucket,
      key: keyOf(id),
    });
    return null;
  };

  /** GetObject of a live artifact with its metadata resolved; null when absent, expired or damaged. */
  const openObject = async (id: string, operation: string): Promise<OpenedObject | null> => {
    lifecycle.assertOpen(operation);
    assertValidArtifactId(id, STORE, operation);
    let response: GetObjectCommandOutput;
    try {
      response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(id) }));
    } catch (error) {
      if (isNotFound(error)) return null;
      throw new StoreError({
        code: "STORE_UNAVAILABLE",
        store: STORE,
        operation: "GetObject",
        cause: error,
      });
    }
    const body = response.Body as Readable | undefined;
    const discard = () => body?.destroy();
    const decoded = decodeObjectMetadata(id, response.Metadata);
    if (decoded === null || body === undefined) {
      discard();
      return damaged(id, operation);
    }
    const expiresAt = decoded.layout === "inline" ? decoded.meta.expiresAt : decoded.expiresAt;
    if (isExpired({ expiresAt }, clock())) {
      discard();
      return null;
    }
    const headerBytes = decoded.layout === "framed" ? decoded.headerBytes : 0;
    const byteLength = decoded.layout === "inline" ? decoded.meta.byteLength : decoded.byteLength;
    if (
      response.ContentLength !== undefined &&
      response.ContentLength !== headerBytes + byteLength
    ) {
      discard();
      return damaged(id, operation);
    }
    if (decoded.layout === "inline") return { meta: decoded.meta, body };
    let header: Buffer;
    try {
      header = await readPrefix(body, decoded.headerBytes);
    } catch (error) {
      discard();
      throw new StoreError({
        code: "STORE_UNAVAILABLE",
        store: STORE,
        operation: "GetObject",
        cause: error,
      });
    }
    const meta = decodeFramedHeader(id, header, decoded);
    if (meta === null) {
      discard();
      return damaged(id, operation);
    }
    return { meta, body };
  };

  const headFramed = async (
    id: string,
    decoded: Extract<DecodedMetadata, { layout: "framed" }>,
  ) => {
    const response = await call("GetObject", () =>
      client.send(
        new GetObjectCommand({
          Bucket: bucket,
          Key: keyOf(id),
          Range: `bytes=0-${decoded.headerBytes - 1}`,
        }),
      ),
    );
    const body = response.Body as Readable;
    const again = decodeObjectMetadata(id, response.Metadata);
    if (again?.layout !== "framed" || again.headerBytes !== decoded.headerBytes) {
      body.destroy();
      return null;
    }
    const header = await call("GetObject", async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    });
    return decodeFramedHeader(id, header, again);
  };

  const headObject = async (id: string) => {
    try {
      return await client.send(new HeadObjectCommand({ Bucket: bucket, Key: keyOf(id) }));
    } catch (error) {
      if (isNotFound(error)) return null;
      throw new StoreError({
        code: "STORE_UNAVAILABLE",
        store: STORE,
        operation: "HeadObject",
        cause: error,
      });
    }
  };

  /** Every artifact key under the prefix, page by page, with its size. */
  const listArtifacts = async function* (): AsyncGenerator<{ id: string; size: number }> {
    let token: string | undefined;
    do {
      const page = await call("ListObjectsV2", () =>
        client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix,
            ContinuationToken: token,
            MaxKeys: listPageSize,
          }),
        ),
      );
      for (const object of page.Contents ?? []) {
        const id = object.Key?.slice(prefix.length) ?? "";
        if (isValidArtifactId(id)) yield { id, size: object.Size ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  };

  return {
    name: STORE,
    capabilities: { persistent: true, shared: true, quota: false },

    async put(meta, body) {
      lifecycle.assertOpen("put");
      assertValidArtifactId(meta.id, STORE, "put");
      const checked = checkMetaForBody(meta, body, STORE);
      const { metadata, header } = encodeObjectMetadata(checked);
      const payload = header === null ? body : Buffer.concat([header, body]);
      await call("PutObject", () =>
        client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: keyOf(checked.id),
            Body: payload,
            ContentLength: payload.byteLength,
            ContentType: "application/octet-stream",
            Metadata: metadata,
          }),
        ),
      );
    },

    async get(id): Promise<StoredArtifact | null> {
      const opened = await openObject(id, "get");
      if (opened === null) return null;
      const body = await call("GetObject", async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of opened.body) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      });
      if (body.byteLength !== opened.meta.byteLength || sha256Hex(body) !== opened.meta.sha256) {
        return damaged(id, "get");
      }
      return { meta: opened.meta, body };
    },

    async getStream(id): Promise<StreamedArtifact | null> {
      const opened = await openObject(id, "getStream");
      if (opened === null) return null;
      const verifier = createVerifyingStream(opened.meta, () => {
        logger.warn(`[stores:${STORE}] getStream: a damaged object`, { bucket, key: keyOf(id) });
        return new StoreError({
          code: "STORE_UNAVAILABLE",
          store: STORE,
          operation: "GetObject",
          message: `[stores:${STORE}] GetObject failed: the body does not match its metadata`,
        });
      });
      pipeline(opened.body, verifier, () => undefined);
      return { meta: opened.meta, body: verifier };
    },

    async head(id) {
      lifecycle.assertOpen("head");
      assertValidArtifactId(id, STORE, "head");
      const response = await headObject(id);
      if (response === null) return null;
      const decoded = decodeObjectMetadata(id, response.Metadata);
      if (decoded === null) return damaged(id, "head");
      const expiresAt = decoded.layout === "inline" ? decoded.meta.expiresAt : decoded.expiresAt;
      if (isExpired({ expiresAt }, clock())) return null;
      return decoded.layout === "inline" ? decoded.meta : await headFramed(id, decoded);
    },

    async delete(id) {
      lifecycle.assertOpen("delete");
      assertValidArtifactId(id, STORE, "delete");
      await call("DeleteObject", () =>
        client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(id) })),
      );
    },

    async sweep(now): Promise<SweepResult> {
      lifecycle.assertOpen("sweep");
      const at = now ?? clock();
      const ids: string[] = [];
      for await (const { id } of listArtifacts()) ids.push(id);
      let removed = 0;
      let freedBytes = 0;
      await runLimited(ids, SWEEP_CONCURRENCY, async (id) => {
        const response = await headObject(id);
        if (response === null) return;
        const decoded = decodeObjectMetadata(id, response.Metadata);
        if (decoded === null) return;
        const meta = decoded.layout === "inline" ? decoded.meta : decoded;
        if (!isExpired(meta, at)) return;
        await call("DeleteObject", () =>
          client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(id) })),
        );
        removed += 1;
        freedBytes += meta.byteLength;
      });
      return { removed, freedBytes };
    },

    async usage() {
      lifecycle.assertOpen("usage");
      let count = 0;
      let bytes = 0;
      for await (const { size } of listArtifacts()) {
        count += 1;
        bytes += size;
      }
      return { count, bytes };
    },

    async dispose() {
      if (!lifecycle.markDisposed()) return;
      if (ownsClient) client.destroy();
    },
  };
}

import type { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  ListObjectsV2Command,
  type S3Client,
} from "@aws-sdk/client-s3";
import { isValidArtifactId } from "../artifact-id.js";
import { expiredOf } from "../shared/expired-memory.js";
import type { StoreLogger } from "../shared/logger.js";
import { isExpired } from "../shared/meta.js";
import { readPrefix } from "../shared/read-prefix.js";
import { StoreError } from "../store-error.js";
import type { ArtifactMeta, ExpiredArtifact } from "../types.js";
import {
  type DecodedMetadata,
  decodeFramedHeader,
  decodeObjectMetadata,
} from "./object-metadata.js";
import { isNotFound } from "./s3-client.js";
import { sendWithin } from "./s3-deadline.js";

const STORE = "s3";

/** What the object helpers work on: one bucket and prefix through one client. */
export interface S3ObjectsContext {
  client: S3Client;
  bucket: string;
  prefix: string;
  clock: () => number;
  logger: StoreLogger;
  listPageSize: number;
  /** Deadline of one S3 call until its response starts, retries included (see createS3Deadline). */
  timeoutMs: number;
}

/** A live artifact's metadata and its body stream (positioned after any framed header). */
export interface OpenedObject {
  meta: ArtifactMeta;
  body: Readable;
}

type Framed = Extract<DecodedMetadata, { layout: "framed" }>;

/** The members every layout has in user metadata: enough to expire and count an object. */
function fixedMembersOf(decoded: DecodedMetadata): { expiresAt: number; byteLength: number } {
  return decoded.layout === "inline" ? decoded.meta : decoded;
}

/**
 * The S3 calls of the store, each failing with a StoreError named after the S3 operation (the
 * SDK error as cause), and each treating an unknown key as null. Ids are validated by the caller.
 */
export function createS3Objects(context: S3ObjectsContext) {
  const { client, bucket, prefix, clock, logger, listPageSize } = context;
  const keyOf = (id: string) => `${prefix}${id}`;
  const deadline = { bucket, logger, timeoutMs: context.timeoutMs };
  /** One S3 call within the call deadline (see sendWithin); `extraMs` lengthens it (uploads). */
  const within = <T>(
    operation: string,
    run: (abortSignal: AbortSignal) => Promise<T>,
    extraMs = 0,
  ): Promise<T> => sendWithin(deadline, operation, run, extraMs);

  const unavailable = (operation: string, cause: unknown): StoreError =>
    new StoreError({ code: "STORE_UNAVAILABLE", store: STORE, operation, cause });

  const call = async <T>(operation: string, send: () => Promise<T>): Promise<T> => {
    try {
      return await send();
    } catch (error) {
      throw unavailable(operation, error);
    }
  };

  /** Reads an object's body to its end; a failure mid-body is the operation's failure. */
  const collect = (operation: string, body: Readable): Promise<Buffer> =>
    call(operation, async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    });

  /** Reports a damaged object to the logger; returns null, which is what the caller serves. */
  const damaged = (id: string, operation: string): null => {
    logger.warn(`[stores:${STORE}] ${operation}: skipped a damaged object`, {
      bucket,
      key: keyOf(id),
    });
    return null;
  };

  const getObject = async (id: string): Promise<GetObjectCommandOutput | null> => {
    try {
      return await within("GetObject", (abortSignal) =>
        client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(id) }), { abortSignal }),
      );
    } catch (error) {
      if (isNotFound(error)) return null;
      throw unavailable("GetObject", error);
    }
  };

  /** The full metadata of a framed object, read off its body; null when the body is damaged. */
  const readFramedHeader = async (id: string, body: Readable, decoded: Framed) => {
    let header: Buffer;
    try {
      header = await readPrefix(body, decoded.headerBytes);
    } catch (error) {
      body.destroy();
      throw unavailable("GetObject", error);
    }
    return decodeFramedHeader(id, header, decoded);
  };

  /**
   * GetObject of a live artifact with its metadata resolved; an ExpiredArtifact (the body
   * destroyed) when it expired, null when absent or damaged.
   */
  const open = async (
    id: string,
    operation: string,
  ): Promise<OpenedObject | ExpiredArtifact | null> => {
    const response = await getObject(id);
    if (response === null) return null;
    const body = response.Body as Readable | undefined;
    const decoded = decodeObjectMetadata(id, response.Metadata);
    const discard = (result: null) => {
      body?.destroy();
      return result;
    };
    if (decoded === null || body === undefined) return discard(damaged(id, operation));
    const { expiresAt, byteLength } = fixedMembersOf(decoded);
    if (isExpired({ expiresAt }, clock())) {
      const meta =
        decoded.layout === "inline" ? decoded.meta : await readFramedHeader(id, body, decoded);
      body.destroy();
      return meta === null ? damaged(id, operation) : expiredOf(meta);
    }
    const headerBytes = decoded.layout === "framed" ? decoded.headerBytes : 0;
    const length = response.ContentLength;
    if (length !== undefined && length !== headerBytes + byteLength) {
      return discard(damaged(id, operation));
    }
    if (decoded.layout === "inline") return { meta: decoded.meta, body };
    const meta = await readFramedHeader(id, body, decoded);
    return meta === null ? discard(damaged(id, operation)) : { meta, body };
  };

  /** HeadObject; null for an unknown key. */
  const headObject = async (id: string) => {
    try {
      return await within("HeadObject", (abortSignal) =>
        client.send(new HeadObjectCommand({ Bucket: bucket, Key: keyOf(id) }), { abortSignal }),
      );
    } catch (error) {
      if (isNotFound(error)) return null;
      throw unavailable("HeadObject", error);
    }
  };

  /** The header of a framed object by a ranged GetObject; null if the object changed meanwhile. */
  const headFramed = async (id: string, decoded: Framed): Promise<ArtifactMeta | null> => {
    const response = await call("GetObject", () =>
      within("GetObject", (abortSignal) =>
        client.send(
          new GetObjectCommand({
            Bucket: bucket,
            Key: keyOf(id),
            Range: `bytes=0-${decoded.headerBytes - 1}`,
          }),
          { abortSignal },
        ),
      ),
    );
    const body = response.Body as Readable;
    const again = decodeObjectMetadata(id, response.Metadata);
    if (again?.layout !== "framed" || again.headerBytes !== decoded.headerBytes) {
      body.destroy();
      return null;
    }
    return decodeFramedHeader(id, await collect("GetObject", body), again);
  };

  /**
   * The metadata of a live artifact without its body; an ExpiredArtifact when it expired, null
   * when absent or damaged.
   */
  const head = async (id: string): Promise<ArtifactMeta | ExpiredArtifact | null> => {
    const response = await headObject(id);
    if (response === null) return null;
    const decoded = decodeObjectMetadata(id, response.Metadata);
    if (decoded === null) return damaged(id, "head");
    // The object may have been replaced between HeadObject and the ranged GetObject.
    const meta = decoded.layout === "inline" ? decoded.meta : await headFramed(id, decoded);
    if (meta === null) return null;
    return isExpired(meta, clock()) ? expiredOf(meta) : meta;
  };

  /**
   * Deletes the object when it is ours and expired at `now`: its body bytes and, when its user
   * metadata holds the scope (not a framed object), what to remember of it; null when it was
   * kept (live, not ours, or already gone).
   */
  const deleteIfExpired = async (
    id: string,
    now: number,
  ): Promise<{ byteLength: number; expired: ExpiredArtifact | null } | null> => {
    const response = await headObject(id);
    const decoded = response === null ? null : decodeObjectMetadata(id, response.Metadata);
    if (decoded === null) return null;
    const members = fixedMembersOf(decoded);
    if (!isExpired(members, now)) return null;
    await remove(id);
    const expired = decoded.layout === "inline" ? expiredOf(decoded.meta) : null;
    return { byteLength: members.byteLength, expired };
  };

  /** DeleteObject; deleting an unknown key succeeds. */
  const remove = async (id: string): Promise<void> => {
    await call("DeleteObject", () =>
      within("DeleteObject", (abortSignal) =>
        client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(id) }), {
          abortSignal,
        }),
      ),
    );
  };

  /** Every artifact key under the prefix, page by page, with its object size. */
  const list = async function* (): AsyncGenerator<{ id: string; size: number }> {
    let token: string | undefined;
    do {
      const page = await call("ListObjectsV2", () =>
        within("ListObjectsV2", (abortSignal) =>
          client.send(
            new ListObjectsV2Command({
              Bucket: bucket,
              Prefix: prefix,
              ContinuationToken: token,
              MaxKeys: listPageSize,
            }),
            { abortSignal },
          ),
        ),
      );
      for (const object of page.Contents ?? []) {
        const id = object.Key?.slice(prefix.length) ?? "";
        if (isValidArtifactId(id)) yield { id, size: object.Size ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  };

  return { keyOf, within, call, collect, damaged, open, head, deleteIfExpired, remove, list };
}

import { S3Client } from "@aws-sdk/client-s3";
import type { S3StoreOptions } from "./s3-store.js";

/**
 * True for the SDK's answer to an unknown key (NoSuchKey, NotFound, or a 404). A missing bucket
 * (NoSuchBucket, also a 404) is a misconfiguration, not an unknown artifact. HeadObject answers
 * without a body, so there a missing bucket still reads as NotFound.
 */
export function isNotFound(error: unknown): boolean {
  const candidate = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (candidate?.name === "NoSuchBucket") return false;
  return (
    candidate?.name === "NoSuchKey" ||
    candidate?.name === "NotFound" ||
    candidate?.$metadata?.httpStatusCode === 404
  );
}

/** Runs `work` over `items` with at most `limit` at once. */
export async function runLimited<T>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const SILENT_SDK_LOGGER = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * The client a store builds when none is given: bounded connection (3 s) and per-attempt request
 * and socket-idle (5 s) timeouts, so a stopped service fails fast instead of hanging (the
 * store's call deadline bounds the attempts together), a few attempts, keep-alive sockets, and no SDK
 * logging; `clientConfig` is merged last.
 */
export function createS3Client(options: S3StoreOptions): S3Client {
  const requestTimeout = options.requestTimeoutMs ?? 5_000;
  return new S3Client({
    region:
      options.region ??
      process.env["AWS_REGION"] ??
      process.env["AWS_DEFAULT_REGION"] ??
      "us-east-1",
    maxAttempts: options.maxAttempts ?? 3,
    logger: SILENT_SDK_LOGGER,
    requestHandler: {
      connectionTimeout: options.connectionTimeoutMs ?? 3_000,
      requestTimeout,
      throwOnRequestTimeout: true,
      socketTimeout: requestTimeout,
      logger: SILENT_SDK_LOGGER,
      httpAgent: { keepAlive: true, maxSockets: 64 },
      httpsAgent: { keepAlive: true, maxSockets: 64 },
    },
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    ...(options.forcePathStyle === undefined ? {} : { forcePathStyle: options.forcePathStyle }),
    ...options.clientConfig,
  });
}

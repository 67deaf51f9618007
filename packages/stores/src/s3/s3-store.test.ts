import { createServer, type Server, type Socket } from "node:net";
import {
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import {
  createRecordingStoreLogger,
  createTestClock,
  metaFor,
  runStoreConformanceSuite,
  testArtifactId,
} from "@bounded-mcp/stores/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  s3rverStoreOptions,
  startTestS3Server,
  TEST_BUCKET,
  type TestS3Server,
} from "../../test/support/s3rver.js";
import { StoreError } from "../store-error.js";
import { encodeObjectMetadata, S3_USER_METADATA_LIMIT_BYTES } from "./object-metadata.js";
import { createS3Store, type S3StoreOptions } from "./s3-store.js";

/** A store over the test server (or any endpoint) with the client settings s3rver needs. */
const createTestS3Store = (target: { endpoint: string }, extra: Partial<S3StoreOptions> = {}) =>
  createS3Store(s3rverStoreOptions(target, extra));

let server: TestS3Server;
beforeAll(async () => {
  server = await startTestS3Server();
});
afterAll(async () => {
  await server.destroy();
});

let prefixCounter = 0;
const freshPrefix = () => {
  prefixCounter += 1;
  return `own-${prefixCounter}/`;
};
const START = 10_000;

interface FailureShape {
  message: string;
  code: string;
  store: string;
  operation: string;
  hasCause: boolean;
}

async function failureOf(promise: Promise<unknown>): Promise<FailureShape | string> {
  try {
    await promise;
    return "resolved";
  } catch (error) {
    if (!StoreError.isInstance(error)) return `not a StoreError: ${String(error)}`;
    const { message, code, store, operation } = error;
    return { message, code, store, operation, hasCause: error.cause !== undefined };
  }
}

const unavailable = (operation: string): FailureShape => ({
  message: `[stores:s3] ${operation} failed`,
  code: "STORE_UNAVAILABLE",
  store: "s3",
  operation,
  hasCause: true,
});

// Runs first: the server goes away and comes back, then the whole suite runs against it.
describe("createS3Store when the server goes away mid-suite", () => {
  it("fails every call fast with a StoreError naming the S3 operation, and serves again once the server is back on the same port", async () => {
    const prefix = freshPrefix();
    const store = createTestS3Store(server, { prefix, clock: createTestClock(START) });
    const body = Buffer.from('{"before":"the outage"}');
    const meta = metaFor(testArtifactId(1), body);
    await store.put(meta, body);
    await server.stop();
    expect({
      put: await failureOf(store.put(meta, body)),
      get: await failureOf(store.get(meta.id)),
      head: await failureOf(store.head(meta.id)),
      delete: await failureOf(store.delete(meta.id)),
      sweep: await failureOf(store.sweep()),
    }).toEqual({
      put: unavailable("PutObject"),
      get: unavailable("GetObject"),
      head: unavailable("HeadObject"),
      delete: unavailable("DeleteObject"),
      sweep: unavailable("ListObjectsV2"),
    });
    await server.restart();
    expect(await store.get(meta.id)).toEqual({ meta, body });
    const after = Buffer.from('{"after":"the outage"}');
    await store.put(metaFor(testArtifactId(2), after), after);
    expect(await objectsUnder(prefix)).toEqual({
      count: 2,
      bytes: body.byteLength + after.byteLength,
    });
    await store.dispose();
  });

  it("gives up on a server that accepts connections but never answers, within its request timeout", async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => {
      sockets.add(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const address = silent.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    const store = createTestS3Store(
      { endpoint: `http://127.0.0.1:${port}` },
      { requestTimeoutMs: 300, maxAttempts: 1, clock: createTestClock(START) },
    );
    const error = await store.head(testArtifactId(3)).catch((caught: unknown) => caught);
    expect(
      StoreError.isInstance(error) && {
        message: error.message,
        operation: error.operation,
        causeName: (error.cause as Error).name,
      },
    ).toEqual({
      message: "[stores:s3] HeadObject failed",
      operation: "HeadObject",
      causeName: "TimeoutError",
    });
    await store.dispose();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });
});

runStoreConformanceSuite(
  "s3",
  async ({ clock, location }) => createTestS3Store(server, { prefix: `${location}/`, clock }),
  { capabilities: { persistent: true, shared: true, quota: false, staging: false } },
);

describe("createS3Store", () => {
  it("keeps the metadata in x-amz-meta-bm-* members of the object itself", async () => {
    const prefix = freshPrefix();
    const store = createTestS3Store(server, { prefix, clock: createTestClock(START) });
    const body = Buffer.from('{"inline":true}');
    const meta = metaFor(testArtifactId(10), body, {
      responseRoot: "/données",
      scopeHash: "scope/ü",
    });
    await store.put(meta, body);
    const raw = await createRawClient().send(
      new HeadObjectCommand({ Bucket: TEST_BUCKET, Key: `${prefix}${meta.id}` }),
    );
    expect({ length: raw.ContentLength, metadata: raw.Metadata }).toEqual({
      length: body.byteLength,
      metadata: {
        "bm-layout-version": "1",
        "bm-media-type": "application/json",
        "bm-byte-length": String(body.byteLength),
        "bm-sha256": meta.sha256,
        "bm-created-at": "1000",
        "bm-expires-at": "1000000",
        "bm-source-truncated": "false",
        "bm-contract-version": "3",
        "bm-header-bytes": "0",
        "bm-scope-hash": "scope%2F%C3%BC",
        "bm-response-root": "%2Fdonn%C3%A9es",
        "bm-primary-paths": "%5B%22%2Fitems%22%2C%22%2Fmeta%2Fcount%22%5D",
      },
    });
    await store.dispose();
  });

  it("falls back to a header in front of the body when the metadata would pass 2 KiB, reads it back whole, and reports it expired", async () => {
    const prefix = freshPrefix();
    const clock = createTestClock(START);
    const store = createTestS3Store(server, { prefix, clock });
    const body = Buffer.from('{"long":"paths"}');
    const primaryPaths = Array.from(
      { length: 6 },
      (_, index) => `/${"deeply/nested/".repeat(30)}${index}`,
    );
    const meta = metaFor(testArtifactId(11), body, { primaryPaths });
    await store.put(meta, body);
    const raw = await createRawClient().send(
      new HeadObjectCommand({ Bucket: TEST_BUCKET, Key: `${prefix}${meta.id}` }),
    );
    const metadataBytes = Object.entries(raw.Metadata ?? {}).reduce(
      (sum, [key, value]) =>
        sum + Buffer.byteLength(`x-amz-meta-${key}`) + Buffer.byteLength(value),
      0,
    );
    expect({
      framed: Number(raw.Metadata?.["bm-header-bytes"]) > 0,
      fitsTheLimit: metadataBytes <= S3_USER_METADATA_LIMIT_BYTES,
      objectIsHeaderPlusBody:
        raw.ContentLength === Number(raw.Metadata?.["bm-header-bytes"]) + body.byteLength,
    }).toEqual({ framed: true, fitsTheLimit: true, objectIsHeaderPlusBody: true });
    expect(await store.get(meta.id)).toEqual({ meta, body });
    expect(await store.head(meta.id)).toEqual(meta);
    clock.set(meta.expiresAt);
    const expired = {
      expired: true,
      id: meta.id,
      scopeHash: meta.scopeHash,
      expiresAt: meta.expiresAt,
    };
    expect([await store.head(meta.id), await store.get(meta.id)]).toEqual([expired, expired]);
    await store.dispose();
  });

  it("sweeps across ListObjectsV2 pages", async () => {
    const prefix = freshPrefix();
    const clock = createTestClock(START);
    const store = createTestS3Store(server, { prefix, clock, listPageSize: 4 });
    const body = Buffer.alloc(10, 1);
    for (let index = 0; index < 11; index += 1) {
      const expiresAt = index < 7 ? START + 100 : START + 10_000;
      await store.put(metaFor(testArtifactId(20 + index), body, { expiresAt }), body);
    }
    expect(await objectsUnder(prefix)).toEqual({ count: 11, bytes: 110 });
    expect(await store.sweep(START + 100)).toEqual({ removed: 7, freedBytes: 70 });
    expect(await objectsUnder(prefix)).toEqual({ count: 4, bytes: 40 });
    await store.dispose();
  });

  it("ignores objects under the prefix that are not artifacts", async () => {
    const prefix = freshPrefix();
    const store = createTestS3Store(server, { prefix, clock: createTestClock(START) });
    const foreign = createTestS3Store(server, {
      prefix: `${prefix}nested/`,
      clock: createTestClock(START),
    });
    const body = Buffer.from("{}");
    await foreign.put(metaFor(testArtifactId(40), body), body);
    expect(await store.head(testArtifactId(40))).toBeNull();
    expect(await store.sweep(Number.MAX_SAFE_INTEGER)).toEqual({ removed: 0, freedBytes: 0 });
    expect(await objectsUnder(`${prefix}nested/`)).toEqual({ count: 1, bytes: body.byteLength });
    await Promise.all([store.dispose(), foreign.dispose()]);
  });

  it("never serves an object whose body disagrees with its metadata, and reports it", async () => {
    const prefix = freshPrefix();
    const logger = createRecordingStoreLogger();
    const store = createTestS3Store(server, { prefix, logger, clock: createTestClock(START) });
    const body = Buffer.from('{"honest":"body"}');
    const sameLength = metaFor(testArtifactId(51), body);
    const otherLength = metaFor(testArtifactId(52), body);
    const raw = createRawClient();
    const writeRaw = (meta: typeof sameLength, stored: Buffer) =>
      raw.send(
        new PutObjectCommand({
          Bucket: TEST_BUCKET,
          Key: `${prefix}${meta.id}`,
          Body: stored,
          Metadata: encodeObjectMetadata(meta).metadata,
        }),
      );
    await writeRaw(sameLength, Buffer.from('{"forged":"body"}'));
    await writeRaw(otherLength, Buffer.from('{"longer":"forged body"}'));
    expect({
      sameLength: await store.get(sameLength.id),
      otherLength: await store.get(otherLength.id),
      warnings: logger.lines.map((line) => line.message),
    }).toEqual({
      sameLength: null,
      otherLength: null,
      warnings: [
        "[stores:s3] get: skipped a damaged object",
        "[stores:s3] get: skipped a damaged object",
      ],
    });
    raw.destroy();
    await store.dispose();
  });

  it("reports a missing bucket as STORE_UNAVAILABLE, not as an unknown artifact", async () => {
    const store = createTestS3Store(server, {
      bucket: "no-such-bucket",
      clock: createTestClock(START),
    });
    const failure = await store.get(testArtifactId(50)).catch((error: unknown) => error);
    expect(
      StoreError.isInstance(failure) && {
        message: failure.message,
        causeName: (failure.cause as Error).name,
      },
    ).toEqual({ message: "[stores:s3] GetObject failed", causeName: "NoSuchBucket" });
    await store.dispose();
  });

  it("leaves a client it was given open after dispose", async () => {
    const client = createRawClient();
    const store = createS3Store({
      bucket: TEST_BUCKET,
      client,
      prefix: freshPrefix(),
      clock: createTestClock(START),
    });
    await store.dispose();
    const stillWorks = await client
      .send(new HeadObjectCommand({ Bucket: TEST_BUCKET, Key: "missing" }))
      .catch(
        (error: { $metadata?: { httpStatusCode?: number } }) => error.$metadata?.httpStatusCode,
      );
    expect(stillWorks).toBe(404);
    client.destroy();
  });
});

/** What the bucket holds under `prefix`, listed with a raw client: objects and their bytes. */
async function objectsUnder(prefix: string): Promise<{ count: number; bytes: number }> {
  const raw = createRawClient();
  try {
    const page = await raw.send(new ListObjectsV2Command({ Bucket: TEST_BUCKET, Prefix: prefix }));
    const contents = page.Contents ?? [];
    return {
      count: contents.length,
      bytes: contents.reduce((sum, object) => sum + (object.Size ?? 0), 0),
    };
  } finally {
    raw.destroy();
  }
}

function createRawClient(): S3Client {
  const options = s3rverStoreOptions(server);
  return new S3Client({
    region: "us-east-1",
    endpoint: options.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    ...options.clientConfig,
  });
}

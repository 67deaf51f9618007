import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { createS3Store, type S3StoreOptions } from "@bounded-mcp/stores/s3";
import {
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
import { createEncryptedStore } from "./encrypted-store.js";
import { testKeys } from "./test-keys.js";

let server: TestS3Server;
beforeAll(async () => {
  server = await startTestS3Server();
});
afterAll(async () => {
  await server.destroy();
});

const s3Store = (extra: Partial<S3StoreOptions>) =>
  createS3Store(s3rverStoreOptions(server, extra));

runStoreConformanceSuite(
  "encrypted s3",
  async ({ clock, location }) =>
    createEncryptedStore({
      store: s3Store({ prefix: `${location}/`, clock }),
      keys: testKeys("a"),
    }),
  {
    largeBodyBytes: 16 * 1024 * 1024,
    capabilities: { persistent: true, shared: true, quota: false, staging: false },
  },
);

const SECRET = "sk-live-93be01-never-in-the-bucket";
const PATH_SECRET = "acct-5521-private-field";

/** The object's bytes and user metadata, read with a plain client (what the bucket's operator sees). */
async function rawObject(key: string): Promise<string> {
  const options = s3rverStoreOptions(server);
  const client = new S3Client({
    region: "us-east-1",
    endpoint: options.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    ...options.clientConfig,
  });
  try {
    const object = await client.send(new GetObjectCommand({ Bucket: TEST_BUCKET, Key: key }));
    const bytes = Buffer.from((await object.Body?.transformToByteArray()) ?? []);
    return `${bytes.toString("latin1")}\n${JSON.stringify(object.Metadata)}`;
  } finally {
    client.destroy();
  }
}

describe("createEncryptedStore over the S3 store", () => {
  const body = Buffer.from(JSON.stringify({ [PATH_SECRET]: [{ token: SECRET }] }));
  const artifact = (number: number, overrides: Parameters<typeof metaFor>[2] = {}) =>
    metaFor(testArtifactId(number), body, {
      responseRoot: `/${PATH_SECRET}`,
      primaryPaths: [`/${PATH_SECRET}`, `/${PATH_SECRET}/0/token`],
      ...overrides,
    });

  it("leaves neither the payload nor its preview inputs in the object or its metadata", async () => {
    const clock = createTestClock(10_000);
    const store = createEncryptedStore({
      store: s3Store({ prefix: "raw/", clock }),
      keys: testKeys("a"),
    });
    const meta = artifact(1);
    await store.put(meta, body);
    const raw = await rawObject(`raw/${meta.id}`);
    expect([raw.includes(SECRET), raw.includes(PATH_SECRET), raw.includes(meta.sha256)]).toEqual([
      false,
      false,
      false,
    ]);
    expect(await store.get(meta.id)).toEqual({ meta, body });
    await store.dispose();
  });

  it("(control) the plain S3 store does keep both in clear, so the check above can fail", async () => {
    const store = s3Store({ prefix: "raw-plain/", clock: createTestClock(10_000) });
    const meta = artifact(2);
    await store.put(meta, body);
    const raw = await rawObject(`raw-plain/${meta.id}`);
    expect([raw.includes(SECRET), raw.includes(PATH_SECRET)]).toEqual([true, true]);
    await store.dispose();
  });

  it("is swept by an S3 store without keys (expiry stays readable)", async () => {
    const clock = createTestClock(10_000);
    const store = createEncryptedStore({
      store: s3Store({ prefix: "sweep/", clock }),
      keys: testKeys("a"),
    });
    const expiring = artifact(3, { createdAt: 10_000, expiresAt: 20_000 });
    const living = artifact(4, { createdAt: 10_000, expiresAt: 90_000 });
    await store.put(expiring, body);
    await store.put(living, body);
    const keyless = s3Store({
      prefix: "sweep/",
      clock: createTestClock(30_000),
      expiredGraceMs: 0,
    });
    const swept = await keyless.sweep();
    expect({
      removed: swept.removed,
      expiring: await keyless.head(expiring.id),
      living: await store.get(living.id),
    }).toEqual({ removed: 1, expiring: null, living: { meta: living, body } });
    await Promise.all([store.dispose(), keyless.dispose()]);
  });
});

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { S3StoreOptions } from "@bounded-mcp/stores/s3";
import S3rver from "s3rver";

/** The bucket the test server serves. */
const TEST_BUCKET = "artifacts";

/** An s3rver on 127.0.0.1 in a temp folder (the stores package's tests have a fuller helper). */
export interface TestS3Server {
  readonly endpoint: string;
  /** Stops the server and removes its folder. */
  destroy(): Promise<void>;
}

/** Starts s3rver on a port the OS picks, with one bucket. */
export async function startTestS3Server(): Promise<TestS3Server> {
  const directory = mkdtempSync(join(tmpdir(), "adapter-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: TEST_BUCKET }],
  });
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    async destroy() {
      const closed = server.close();
      server.httpServer?.closeAllConnections();
      await closed;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * The S3 store options s3rver needs: path-style URLs, its fixed credentials, checksums only when
 * required (with the SDK's default, streamed uploads are stored corrupted, silently), and
 * generous timeouts for a loaded machine.
 */
export function s3rverStoreOptions(server: TestS3Server, prefix: string): S3StoreOptions {
  return {
    bucket: TEST_BUCKET,
    prefix,
    endpoint: server.endpoint,
    region: "us-east-1",
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    forcePathStyle: true,
    requestTimeoutMs: 30_000,
    connectionTimeoutMs: 15_000,
    clientConfig: {
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    },
  };
}

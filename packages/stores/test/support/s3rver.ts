import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { S3StoreOptions } from "@bounded-mcp/stores/s3";
import S3rver from "s3rver";

/** The bucket every test server serves. */
export const TEST_BUCKET = "artifacts";

/** An s3rver on 127.0.0.1 that a test can stop and start again on the same port and folder. */
export interface TestS3Server {
  readonly endpoint: string;
  readonly port: number;
  /** Stops listening and cuts open connections at once (a crashed server). */
  stop(): Promise<void>;
  /** Listens again on the same port over the same folder. */
  restart(): Promise<void>;
  /** Stops the server and removes its folder. */
  destroy(): Promise<void>;
}

async function listen(directory: string, port: number): Promise<{ server: S3rver; port: number }> {
  const server = new S3rver({
    address: "127.0.0.1",
    port,
    directory,
    silent: true,
    configureBuckets: [{ name: TEST_BUCKET }],
  });
  const address = await server.run();
  return { server, port: address.port };
}

/** Starts s3rver in a fresh temp folder on a port the OS picks. */
export async function startTestS3Server(): Promise<TestS3Server> {
  const directory = mkdtempSync(join(tmpdir(), "bounded-mcp-s3rver-"));
  let { server, port } = await listen(directory, 0);
  let running = true;
  const stop = async () => {
    if (!running) return;
    running = false;
    const closed = server.close();
    server.httpServer?.closeAllConnections();
    await closed;
  };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    stop,
    async restart() {
      await stop();
      ({ server } = await listen(directory, port));
      running = true;
    },
    async destroy() {
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * The client settings s3rver needs: path-style URLs, its fixed credentials, and checksums only
 * when required (with the SDK's default, streamed uploads are stored corrupted, silently).
 */
export function s3rverStoreOptions(
  server: Pick<TestS3Server, "endpoint">,
  extra: Partial<S3StoreOptions> = {},
): S3StoreOptions {
  return {
    bucket: TEST_BUCKET,
    endpoint: server.endpoint,
    region: "us-east-1",
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    forcePathStyle: true,
    // Generous: 50 writers and 50 readers open sockets at once, and on a loaded 2-core machine a
    // local connect has taken over 1 s. Tests of a silent server set their own, shorter limits.
    requestTimeoutMs: 30_000,
    timeoutMs: 120_000,
    connectionTimeoutMs: 15_000,
    ...extra,
    clientConfig: {
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      ...extra.clientConfig,
    },
  };
}

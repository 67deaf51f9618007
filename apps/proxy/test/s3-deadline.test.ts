import { createServer, type Server, type Socket } from "node:net";
import { type BoundedMcp, createBoundedMcp } from "@bounded-mcp/mcp-adapter";
import { createRecordingLogger, type RecordingLogger } from "@bounded-mcp/mcp-adapter/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// A frozen S3 endpoint: a TCP server that accepts connections and never answers. The adapter
// is built from settings as the proxy builds it (store s3, --s3-timeout), so the deadline goes
// from the setting through the store to every S3 call. The per-attempt timeouts keep their
// defaults (seconds), so only the small call deadline can end these calls first.

const DEADLINE_MS = 300;
const sockets = new Set<Socket>();
let silent: Server;
let endpoint: string;
const savedEnvironment = { ...process.env };

beforeAll(async () => {
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
  // The SDK signs requests, so it needs credentials before it ever reaches the endpoint.
  process.env.AWS_ACCESS_KEY_ID = "frozen-endpoint-test";
  process.env.AWS_SECRET_ACCESS_KEY = "frozen-endpoint-test";
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
});

afterAll(async () => {
  process.env = savedEnvironment;
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

function adapterOverFrozenS3(logger: RecordingLogger): BoundedMcp {
  return createBoundedMcp({
    store: "s3",
    s3Bucket: "artifacts",
    s3Endpoint: endpoint,
    s3Region: "us-east-1",
    s3Timeout: DEADLINE_MS,
    environment: {},
    logger,
  });
}

const bigResult = () => ({
  content: [
    {
      type: "text" as const,
      text: JSON.stringify({
        items: Array.from({ length: 2_000 }, (_, id) => ({ id, n: "x".repeat(40) })),
      }),
    },
  ],
});

const deadlineLines = (logger: RecordingLogger, operation: string) =>
  logger.records.filter(
    (record) =>
      record.level === "warn" &&
      record.message.startsWith(`[stores:s3] ${operation}: no answer from the S3 endpoint within `),
  );

describe("the S3 store behind a frozen endpoint", () => {
  it("fails a put within --s3-timeout as ARTIFACT_STORE_UNAVAILABLE and logs the missed deadline", async () => {
    const logger = createRecordingLogger();
    const bounded = adapterOverFrozenS3(logger);
    const result = await bounded.boundResult(bigResult());
    expect({
      isError: result.isError,
      error: (result.structuredContent as { error: unknown }).error,
    }).toEqual({
      isError: true,
      error: {
        code: "ARTIFACT_STORE_UNAVAILABLE",
        message:
          "The artifact store could not keep this oversized tool result, so it was neither stored nor inlined. Retry the call.",
        details: { retryable: true },
      },
    });
    const [line] = deadlineLines(logger, "PutObject");
    expect(line?.fields).toMatchObject({ operation: "PutObject", bucket: "artifacts" });
    expect(line?.fields?.timeoutMs).toBeGreaterThanOrEqual(DEADLINE_MS);
    await bounded.dispose();
  });

  it("fails a query's read within --s3-timeout as ARTIFACT_STORE_UNAVAILABLE and logs the missed deadline", async () => {
    const logger = createRecordingLogger();
    const bounded = adapterOverFrozenS3(logger);
    const result = await bounded.callQueryTool({ artifactId: "Zq3xV9kLm2Pw8RtY6uNb4A" });
    expect((result.structuredContent as { response: unknown }).response).toEqual({
      error: {
        code: "ARTIFACT_STORE_UNAVAILABLE",
        message: "The artifact store failed while reading this artifact. Retry the call.",
        details: { retryable: true },
      },
    });
    expect(deadlineLines(logger, "HeadObject").map((record) => record.fields)).toEqual([
      { operation: "HeadObject", bucket: "artifacts", timeoutMs: DEADLINE_MS },
    ]);
    await bounded.dispose();
  });
});

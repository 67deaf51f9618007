import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { createRecordingLogger } from "../src/testing/recording-logger.js";
import { jsonTextResult } from "./support/fixtures.js";
import { connectLowLevelServer, createTestAdapter } from "./support/harness.js";

const SECRET = "pw-1d8e44c0-at-rest";
const KEY_A = `a:${"1a".repeat(32)}`;
const KEY_B = `b:${"2b".repeat(32)}`;
const rows = {
  items: Array.from({ length: 300 }, (_, index) => ({
    id: index,
    password: SECRET,
    pad: "y".repeat(120),
  })),
};

const dir = await mkdtemp(join(tmpdir(), "adapter-at-rest-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** An adapter over `dir` with encryption on (from the environment, as an app sets it) and `keys`. */
async function open(keys: string, encrypt = "true") {
  const logger = createRecordingLogger();
  const bounded = createTestAdapter({
    keys,
    logger,
    parseCacheBytes: 0,
    environment: { BOUNDED_MCP_STORE_DIR: dir, BOUNDED_MCP_ENCRYPT_AT_REST: encrypt },
  });
  const connection = await connectLowLevelServer(
    bounded,
    { fixture: { result: () => jsonTextResult(rows) } },
    { sessionId: "alice" },
  );
  const call = async (name: string, argumentsValue: Record<string, unknown> = {}) =>
    (await connection.client.callTool({ name, arguments: argumentsValue })) as CallToolResult;
  const close = async () => {
    await connection.close();
    await bounded.dispose();
  };
  return { call, close, logger };
}

const firstPassword = (result: CallToolResult) =>
  (result.structuredContent as { response?: { password: string }[] }).response?.[0]?.password ??
  result.structuredContent;

describe("encryptAtRest through the adapter's settings (fs store)", () => {
  let id = "";

  it("writes files without the payload, and answers queries from them", async () => {
    const writer = await open(KEY_A);
    const envelope = await writer.call("fixture");
    id = (envelope.structuredContent as { responseMeta: { artifact: { id: string } } }).responseMeta
      .artifact.id;
    const raw = (
      await Promise.all((await readdir(dir)).map((name) => readFile(join(dir, name), "latin1")))
    ).join("");
    const page = await writer.call(QUERY_TOOL_NAME, {
      artifactId: id,
      fields: ["password"],
      pageSize: 1,
    });
    await writer.close();
    expect({
      files: (await readdir(dir)).length,
      rawHasSecret: raw.includes(SECRET),
      page: firstPassword(page),
    }).toEqual({
      files: 1,
      rawHasSecret: false,
      page: SECRET,
    });
  });

  it("still answers after rotation to [B, A], and answers unknown (logged) with [B] alone", async () => {
    const rotated = await open(`${KEY_B},${KEY_A}`);
    const query = { artifactId: id, fields: ["password"], pageSize: 1 };
    const afterRotation = firstPassword(await rotated.call(QUERY_TOOL_NAME, query));
    await rotated.close();
    const retired = await open(KEY_B);
    const unknown = (await retired.call(QUERY_TOOL_NAME, query)).structuredContent as {
      response: { error: { code: string; details: unknown } };
    };
    await retired.close();
    expect({
      afterRotation,
      retired: unknown.response.error,
      warnings: retired.logger.records
        .filter((record) => record.level === "warn")
        .map((record) => record.fields),
    }).toEqual({
      afterRotation: SECRET,
      retired: expect.objectContaining({
        code: "INVALID_ARTIFACT_HANDLE",
        details: { reason: "unknown" },
      }),
      warnings: [expect.objectContaining({ artifactId: id, reason: "unknown_key" })],
    });
  });

  it("with encryption turned off, sealed artifacts answer ARTIFACT_STORE_UNAVAILABLE, never ciphertext", async () => {
    const plain = await open(KEY_A, "false");
    const requests = [
      { artifactId: id, fields: ["password"], pageSize: 1 },
      { artifactId: id, describe: true },
      { artifactId: id, textSearch: { query: "a" } },
    ];
    const errors: unknown[] = [];
    for (const request of requests) {
      const answer = (await plain.call(QUERY_TOOL_NAME, request)).structuredContent as {
        response: { error?: unknown };
      };
      errors.push(answer.response.error);
    }
    await plain.close();
    const error = {
      code: "ARTIFACT_STORE_UNAVAILABLE",
      message: "The artifact store failed while reading this artifact. Retry the call.",
      details: { retryable: true },
    };
    expect(errors).toEqual([error, error, error]);
  });
});

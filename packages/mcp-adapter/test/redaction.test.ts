import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { RedactContext, RedactHook } from "../src/bounding/redact-payload.js";
import type { BoundedMcpOptions } from "../src/server/create-bounded-mcp.js";
import { createRecordingLogger } from "../src/testing/recording-logger.js";
import { jsonTextResult } from "./support/fixtures.js";
import { connectLowLevelServer, createTestAdapter } from "./support/harness.js";

const SECRET = "sk-live-0c7d1e55aa";
const REDACTED = "[redacted]";

/** 400 rows, each holding the secret twice (a field of its own and inside a sentence). */
const secretRows = () => ({
  items: Array.from({ length: 400 }, (_, index) => ({
    id: index,
    name: `row ${index}`,
    token: SECRET,
    note: `call with ${SECRET} before ${"x".repeat(80)}`,
  })),
});

const replaceSecret: RedactHook = (text) => text.replaceAll(SECRET, REDACTED);

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

/** A folder removed after the test. */
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "adapter-redaction-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Every byte of every file under `dir`, as latin1 text. */
async function rawFolder(dir: string): Promise<string> {
  const names = await readdir(dir);
  return (await Promise.all(names.map((name) => readFile(join(dir, name), "latin1")))).join("\n");
}

async function serve(options: BoundedMcpOptions, result: () => CallToolResult) {
  const bounded = createTestAdapter(options);
  const connection = await connectLowLevelServer(bounded, { fixture: { result } });
  cleanups.push(async () => {
    await connection.close();
    await bounded.dispose();
  });
  const call = async (name: string, argumentsValue: Record<string, unknown> = {}) =>
    (await connection.client.callTool({ name, arguments: argumentsValue })) as CallToolResult;
  return { bounded, call };
}

/** Everything the model can get out of the artifact: the envelope and a round of queries. */
async function everyAnswer(call: Awaited<ReturnType<typeof serve>>["call"]): Promise<string[]> {
  const envelope = await call("fixture");
  const id = (envelope.structuredContent as { responseMeta: { artifact: { id: string } } })
    .responseMeta.artifact.id;
  const queries = [
    { artifactId: id, describe: true },
    { artifactId: id, pageSize: 100 },
    { artifactId: id, fields: ["token", "note"], pageSize: 100 },
    { artifactId: id, filters: [{ path: "token", op: "eq", value: REDACTED }], pageSize: 5 },
    { artifactId: id, textSearch: { query: "sk-live" } },
    { artifactId: id, responsePath: "/items/7" },
  ];
  const answers = [JSON.stringify(envelope)];
  for (const query of queries) answers.push(JSON.stringify(await call(QUERY_TOOL_NAME, query)));
  return answers;
}

const stores: Record<string, () => Promise<BoundedMcpOptions>> = {
  memory: async () => ({}),
  fs: async () => ({ storeDir: await tempDir() }),
  "fs, encrypted": async () => ({ storeDir: await tempDir(), encryptAtRest: true }),
};

describe("a redaction hook", () => {
  for (const [label, storeOptions] of Object.entries(stores)) {
    it(`keeps a replaced secret out of the store, the preview and every query answer (${label})`, async () => {
      const options = await storeOptions();
      const seen: RedactContext[] = [];
      const { bounded, call } = await serve(
        {
          ...options,
          redact: async (text, context) => {
            seen.push(context);
            return replaceSecret(text, context);
          },
        },
        () => jsonTextResult(secretRows()),
      );
      const answers = await everyAnswer(call);
      const id = JSON.parse(answers[0] as string).structuredContent.responseMeta.artifact.id;
      const stored = await bounded.store.get(id);
      const storedText =
        stored !== null && "body" in stored ? Buffer.from(stored.body).toString("latin1") : "";
      const dir = options.storeDir;
      const raw = typeof dir === "string" ? await rawFolder(dir) : storedText;
      expect({
        contexts: seen,
        answersWithSecret: answers.filter((answer) => answer.includes(SECRET)).length,
        answersWithRedaction: answers.filter((answer) => answer.includes(REDACTED)).length,
        storedHasSecret: storedText.includes(SECRET),
        storedIsRedacted: storedText.includes(REDACTED),
        rawHasSecret: raw.includes(SECRET),
      }).toEqual({
        contexts: [{ toolName: "fixture", isError: false }],
        answersWithSecret: 0,
        // The envelope's preview, the page, the projection, the filter (it matches the redacted
        // value) and the pointer read show it; describe and the text search for the secret do not.
        answersWithRedaction: 5,
        storedHasSecret: false,
        storedIsRedacted: true,
        rawHasSecret: false,
      });
    });
  }

  it("(control) without the hook the secret is in the store and the answers", async () => {
    const { call } = await serve({}, () => jsonTextResult(secretRows()));
    const answers = await everyAnswer(call);
    expect(answers.filter((answer) => answer.includes(SECRET)).length).toBeGreaterThan(3);
  });

  it("refuses the result with a bounded error, stores nothing and logs when the hook throws", async () => {
    const dir = await tempDir();
    const logger = createRecordingLogger();
    const { call } = await serve(
      {
        storeDir: dir,
        logger,
        redact: () => {
          throw new Error("vault unreachable");
        },
      },
      () => jsonTextResult(secretRows()),
    );
    const result = await call("fixture");
    // The hook's own error text is logged, never sent: it may quote what it was redacting.
    expect(JSON.stringify(result).includes(SECRET)).toBe(false);
    expect(JSON.stringify(result).includes("vault")).toBe(false);
    expect(result).toMatchInlineSnapshot(`
      {
        "content": [
          {
            "text": "{"success":false,"data":null,"responseMeta":{"contractVersion":3,"truncated":true,"complete":false,"truncationReason":"size_limit","serializedBytes":72991},"error":{"code":"ARTIFACT_STORE_UNAVAILABLE","message":"This oversized tool result could not be redacted (the redaction hook threw), so it was neither stored nor inlined.","details":{"retryable":true,"reason":"redaction_failed"}},"guidance":"The result could not be stored for querying and was not returned. Retry the same call; data, when present, is only a preview."}",
            "type": "text",
          },
        ],
        "isError": true,
        "structuredContent": {
          "data": null,
          "error": {
            "code": "ARTIFACT_STORE_UNAVAILABLE",
            "details": {
              "reason": "redaction_failed",
              "retryable": true,
            },
            "message": "This oversized tool result could not be redacted (the redaction hook threw), so it was neither stored nor inlined.",
          },
          "guidance": "The result could not be stored for querying and was not returned. Retry the same call; data, when present, is only a preview.",
          "responseMeta": {
            "complete": false,
            "contractVersion": 3,
            "serializedBytes": 72991,
            "truncated": true,
            "truncationReason": "size_limit",
          },
          "success": false,
        },
      }
    `);
    expect(await readdir(dir)).toEqual([]);
    expect(logger.records.filter((record) => record.level === "error")).toEqual([
      {
        level: "error",
        message: "an oversized result was refused: redaction failed",
        fields: { tool: "fixture", error: "the redaction hook threw: vault unreachable" },
      },
    ]);
  });

  it("refuses a JSON payload the hook turned into text that is not JSON", async () => {
    const { call } = await serve({ redact: (text) => `${text.slice(0, -1)} <cut>` }, () =>
      jsonTextResult(secretRows()),
    );
    const result = await call("fixture");
    expect({
      isError: result.isError,
      error: (result.structuredContent as { error: unknown }).error,
      data: (result.structuredContent as { data: unknown }).data,
    }).toEqual({
      isError: true,
      error: {
        code: "ARTIFACT_STORE_UNAVAILABLE",
        message:
          "This oversized tool result could not be redacted (the redaction hook returned text that is not JSON for a JSON payload), so it was neither stored nor inlined.",
        details: { retryable: true, reason: "redaction_failed" },
      },
      data: null,
    });
  });

  it("stores a text payload as redacted text, and a structuredContent payload as redacted JSON", async () => {
    const text = `${`line with ${SECRET}\n`.repeat(3_000)}`;
    const plain = await serve({ redact: replaceSecret }, () => ({
      content: [{ type: "text", text }],
    }));
    const structured = await serve({ redact: replaceSecret }, () => ({
      content: [{ type: "text", text: "see structuredContent" }],
      structuredContent: secretRows(),
    }));
    const artifactOf = (result: CallToolResult) =>
      (result.structuredContent as { responseMeta: { artifact: { mediaType: string } } })
        .responseMeta.artifact.mediaType;
    const plainResult = await plain.call("fixture");
    const structuredResult = await structured.call("fixture");
    expect({
      plain: artifactOf(plainResult),
      structured: artifactOf(structuredResult),
      secrets: [plainResult, structuredResult].filter((result) =>
        JSON.stringify(result).includes(SECRET),
      ).length,
    }).toEqual({ plain: "text/plain", structured: "application/json", secrets: 0 });
  });
});

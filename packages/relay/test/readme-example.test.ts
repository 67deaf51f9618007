/**
 * README.md's blocks, read from the README at test time. The stdio example runs as its own
 * process (only the names it takes as given are declared before it: a logger, the
 * server-filesystem entry and the folder it serves): a real client connects, calls once and
 * closes stdin, and the program must exit 0 by itself. If this fails, the README is wrong.
 */
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BoundedEnvelopeSchema } from "@bounded-mcp/contract";
import {
  closeAndAwaitExit,
  createChildStdioTransport,
  spawnReadmeBlock,
  writeReadmeBlock,
} from "@bounded-mcp/vitest-config/readme-blocks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPayloadText } from "../src/test-support/payload.mjs";

const README = new URL("../README.md", import.meta.url);
const PACKAGE = new URL("..", import.meta.url);
const FIXTURE_PATHS = new URL("../src/test-support/fixture-paths.ts", import.meta.url).href;

let directory: string;
beforeAll(async () => {
  directory = await realpath(await mkdtemp(join(tmpdir(), "relay-readme-")));
  await writeFile(join(directory, "big.json"), createPayloadText(1));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("README example", () => {
  it("serves server-filesystem over stdio with a 1 MiB file bounded, then exits 0 once stdin closes", async () => {
    const file = writeReadmeBlock({
      readme: README,
      name: "relay-serve-stdio",
      packageDir: PACKAGE,
      before: `import { createRecordingLogger } from "@bounded-mcp/mcp-adapter/testing";
import { SERVER_FILESYSTEM_PATH as serverFilesystemEntry } from ${JSON.stringify(FIXTURE_PATHS)};
const logger = createRecordingLogger();
const directory = process.argv[2];
`,
    });
    const started = performance.now();
    const running = spawnReadmeBlock(file, {
      args: [directory],
      env: { PATH: process.env.PATH ?? "" },
    });
    const client = new Client({ name: "readme", version: "1.0.0" });
    await client.connect(createChildStdioTransport(running.child));
    const result = await client.callTool({
      name: "read_text_file",
      arguments: { path: join(directory, "big.json") },
    });
    const envelope = BoundedEnvelopeSchema.parse(result.structuredContent);
    expect(envelope.responseMeta.serializedBytes).toBeGreaterThan(1024 * 1024);
    // What starting and one call took (upstream spawn included), twice over: shutting down
    // closes the same upstream and does no more work than starting it did.
    const deadline = 2 * (performance.now() - started);
    const outcome = await closeAndAwaitExit(client, running, deadline); // ends stdin only
    expect(outcome).toMatchObject({ code: 0, signal: null });
  });

  it("loads the hooks module example: one hook for search that leaves errors alone", async () => {
    const file = writeReadmeBlock({
      readme: README,
      name: "relay-hooks",
      packageDir: PACKAGE,
      extension: "mjs",
    });
    const hooks = (await import(file)) as {
      default: { tools: Record<string, (call: unknown) => unknown> };
    };
    expect(Object.keys(hooks.default.tools)).toEqual(["search"]);
    expect(
      hooks.default.tools.search?.({ request: {}, result: { isError: true } }),
    ).toBeUndefined();
  });
});

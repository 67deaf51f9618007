import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BoundedEnvelopeSchema, QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVER_FILESYSTEM_PATH } from "./test-support/fixture-paths.js";
import { createPayloadText } from "./test-support/payload.mjs";
import { type StartedRelay, startRelay } from "./test-support/start-relay.js";

let directory: string;
let relay: StartedRelay;
let downstream: Client;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "relay-bounded-"));
  await writeFile(join(directory, "small.json"), createPayloadText(0.001));
  await writeFile(join(directory, "one-mib.json"), createPayloadText(1));
  await writeFile(join(directory, "thirty-mib.json"), createPayloadText(30));
  relay = await startRelay({
    upstream: {
      kind: "stdio",
      command: process.execPath,
      args: [SERVER_FILESYSTEM_PATH, directory],
      name: "filesystem",
    },
  });
  downstream = relay.downstream;
  await downstream.listTools();
}, 60_000);

afterAll(async () => {
  await relay?.close();
  await rm(directory, { recursive: true, force: true });
});

function readFile(name: string) {
  return downstream.callTool({
    name: "read_text_file",
    arguments: { path: join(directory, name) },
  });
}

describe("a relay over server-filesystem with the adapter's bounding", () => {
  it("passes a small file through unchanged", async () => {
    const text = createPayloadText(0.001);
    expect(await readFile("small.json")).toEqual({
      content: [{ type: "text", text }],
      structuredContent: { content: text },
    });
  });

  for (const [name, mebibytes] of [
    ["one-mib.json", 1],
    ["thirty-mib.json", 30],
  ] as const) {
    it(`bounds the ${mebibytes} MiB file into an envelope that the query tool reads`, async () => {
      const result = (await readFile(name)) as {
        structuredContent: unknown;
        content: { text: string }[];
      };
      const envelope = BoundedEnvelopeSchema.parse(result.structuredContent);
      expect(JSON.parse(result.content[0]!.text)).toEqual(envelope);
      expect(envelope.responseMeta.serializedBytes).toBeGreaterThan(mebibytes * 1024 * 1024);
      const artifactId = envelope.responseMeta.artifact.id;
      const query = await downstream.callTool({
        name: QUERY_TOOL_NAME,
        arguments: { artifactId, describe: true },
      });
      // The file's structuredContent {content: "<text>"} only mirrors its text block, so the
      // adapter stores the text, parsed: the file is queried as the JSON it is.
      const itemCount = (JSON.parse(createPayloadText(mebibytes)) as { items: unknown[] }).items
        .length;
      const output = {
        artifactId,
        responsePath: "/items",
        shape: {
          type: "array",
          length: itemCount,
          sampledItems: 20,
          itemKeys: [
            { name: "id", pointer: "/id", type: "number" },
            { name: "name", pointer: "/name", type: "string", length: 7 },
            { name: "padding", pointer: "/padding", type: "string", length: 960 },
          ],
        },
        responseMeta: {
          contractVersion: 3,
          truncated: false,
          complete: true,
          truncationReason: null,
          returnedCount: 3,
          totalCount: 3,
          remainingCount: 0,
          nextCursor: null,
          serializedBytes: expect.any(Number),
          warning: null,
          pageUnit: "keys",
        },
      };
      expect(query).toEqual({
        content: [{ type: "text", text: expect.any(String) }],
        structuredContent: output,
      });
      expect(JSON.parse((query as { content: { text: string }[] }).content[0]!.text)).toEqual(
        output,
      );
    }, 60_000);
  }
});

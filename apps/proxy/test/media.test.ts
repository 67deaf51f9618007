import { rmSync } from "node:fs";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMediaFolder } from "./support/media-files.js";
import { SERVER_FILESYSTEM } from "./support/paths.js";
import { connectDirect, connectStdioProxy } from "./support/proxy-process.js";

const folder = createMediaFolder();
const pngPath = join(folder.dir, "image.png");
const wavPath = join(folder.dir, "sound.wav");
/** A media budget below both files: each is stored and linked. */
const SMALL_BUDGET = "100000";

let proxied: Client;
let small: Client;
let direct: Client;

beforeAll(async () => {
  [proxied, small, direct] = await Promise.all([
    connectStdioProxy(["--", process.execPath, SERVER_FILESYSTEM, folder.dir]),
    connectStdioProxy([
      "--media-bytes",
      SMALL_BUDGET,
      "--",
      process.execPath,
      SERVER_FILESYSTEM,
      folder.dir,
    ]),
    connectDirect(process.execPath, [SERVER_FILESYSTEM, folder.dir]),
  ]);
});

afterAll(async () => {
  await Promise.all([proxied?.close(), small?.close(), direct?.close()]);
  rmSync(folder.dir, { recursive: true, force: true });
});

async function readMedia(client: Client, path: string): Promise<CallToolResult> {
  return (await client.callTool({
    name: "read_media_file",
    arguments: { path },
  })) as CallToolResult;
}

describe("images and audio through bounded-mcp-proxy (server-filesystem read_media_file)", () => {
  it("writes a valid PNG of about 197 KB for the test", () => {
    expect(folder.png.byteLength).toBeGreaterThan(190_000);
    expect(folder.png.byteLength).toBeLessThan(200_000);
    expect(inflateSync(folder.png.subarray(41, folder.png.byteLength - 16)).byteLength).toBe(
      256 * (256 * 3 + 1),
    );
  });

  it("passes a 197 KB PNG as the image block server-filesystem sent, identical base64 and mimeType", async () => {
    const result = await readMedia(proxied, pngPath);
    const image = { type: "image", data: folder.png.toString("base64"), mimeType: "image/png" };
    expect(result).toEqual({ content: [image], structuredContent: { content: [image] } });
    expect(result).toEqual(await readMedia(direct, pngPath));
  });

  it("passes a WAV as the audio block server-filesystem sent", async () => {
    const result = await readMedia(proxied, wavPath);
    const audio = { type: "audio", data: folder.wav.toString("base64"), mimeType: "audio/wav" };
    expect(result).toEqual({ content: [audio], structuredContent: { content: [audio] } });
  });

  it.each([
    ["image", pngPath, "image/png", () => folder.png],
    ["audio", wavPath, "audio/wav", () => folder.wav],
  ] as const)(
    "stores %s over --media-bytes, links it, and reads the identical bytes back with resources/read",
    async (type, path, mimeType, bytes) => {
      const result = await readMedia(small, path);
      expect(JSON.stringify(result)).not.toContain(bytes().toString("base64").slice(0, 1_000));
      expect(result.content.map((block) => block.type)).toEqual([
        "text",
        "resource_link",
        "resource_link",
      ]);
      const link = result.content[2] as { uri: string; mimeType: string; size: number };
      expect(link).toMatchObject({ mimeType, size: bytes().byteLength });
      expect(link.uri).toMatch(/^artifact:\/\/bounded-mcp\/[A-Za-z0-9_-]{24}$/);
      const read = await small.readResource({ uri: link.uri });
      expect(read.contents).toEqual([
        { uri: link.uri, mimeType, blob: bytes().toString("base64") },
      ]);
      const blob = read.contents[0] as { blob: string };
      expect(Buffer.from(blob.blob, "base64").equals(bytes())).toBe(true);
      expect(result.structuredContent).toMatchObject({
        responseMeta: { artifact: { mediaType: "application/json" } },
      });
      expect(JSON.stringify(result.structuredContent)).toContain(`"type":"${type}"`);
    },
  );
});

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveSettings } from "@bounded-mcp/mcp-adapter";
import { describe, expect, it } from "vitest";
import { openUserCacheStore, readOrCreateKeyFile, userCacheDir } from "./user-cache-store.js";

const RELAY_DIST = new URL("../dist/index.js", import.meta.url).href;

function runNode(script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`exit ${code}`)),
    );
  });
}

describe("userCacheDir", () => {
  it.each([
    [{ XDG_CACHE_HOME: "/x/cache" }, "darwin", "/x/cache/bounded-mcp"],
    [{}, "linux", "/home/u/.cache/bounded-mcp"],
    [{ XDG_CACHE_HOME: " " }, "linux", "/home/u/.cache/bounded-mcp"],
    [{}, "darwin", "/home/u/Library/Caches/bounded-mcp"],
  ] as const)("with %j on %s is %s", (environment, platform, expected) => {
    expect(userCacheDir({ environment, platform, homedir: "/home/u" })).toBe(expected);
  });

  it("uses LOCALAPPDATA on Windows", () => {
    const dir = userCacheDir({
      environment: { LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" },
      platform: "win32",
      homedir: "C:\\Users\\u",
    });
    expect(dir.endsWith("bounded-mcp")).toBe(true);
    expect(dir.startsWith("C:\\Users\\u\\AppData\\Local")).toBe(true);
  });
});

describe("openUserCacheStore", () => {
  it("puts the fs store and a key file (0600) in a 0700 folder, and reuses the key next time", () => {
    const cache = mkdtempSync(join(tmpdir(), "bounded-mcp-cache-"));
    const environment = { XDG_CACHE_HOME: join(cache, "nested") };
    const settings = resolveSettings({ environment: {} });
    const first = openUserCacheStore(settings, { environment });
    expect(first.settings.store).toEqual({
      kind: "fs",
      dir: join(cache, "nested", "bounded-mcp", "artifacts"),
    });
    expect(first.settings.keyRingSource).toBe("file");
    expect(first.keyFile).toBe(join(cache, "nested", "bounded-mcp", "keys"));
    expect({
      folder: statSync(first.dir).mode & 0o777,
      keyFile: statSync(first.keyFile as string).mode & 0o777,
    }).toEqual({ folder: 0o700, keyFile: 0o600 });
    expect(readFileSync(first.keyFile as string, "utf8")).toMatch(/^local:[0-9a-f]{64}\n$/);
    const second = openUserCacheStore(resolveSettings({ environment: {} }), { environment });
    expect(second.settings.keyRing.mac("scope", "x")).toEqual(
      first.settings.keyRing.mac("scope", "x"),
    );
  });

  it("keeps a configured key ring and writes no key file", () => {
    const cache = mkdtempSync(join(tmpdir(), "bounded-mcp-cache-"));
    const keys = `k1:${"ab".repeat(32)}`;
    const settings = resolveSettings({ environment: { BOUNDED_MCP_KEYS: keys } });
    const opened = openUserCacheStore(settings, { environment: { XDG_CACHE_HOME: cache } });
    expect(opened.keyFile).toBeNull();
    expect(opened.settings.keyRing).toBe(settings.keyRing);
    expect(opened.settings.keyRingSource).toBe("environment");
  });

  it("refuses a key file that holds no key ring, naming it", () => {
    const cache = mkdtempSync(join(tmpdir(), "bounded-mcp-cache-"));
    const environment = { XDG_CACHE_HOME: cache };
    const keyFile = join(cache, "bounded-mcp", "keys");
    openUserCacheStore(resolveSettings({ environment: {} }), { environment });
    writeFileSync(keyFile, "not a key");
    expect(() => openUserCacheStore(resolveSettings({ environment: {} }), { environment })).toThrow(
      `the key file ${keyFile} does not hold a key ring`,
    );
  });
});

describe("readOrCreateKeyFile", () => {
  it("gives eight processes starting at once one and the same key", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bounded-mcp-keys-"));
    const path = join(dir, "keys");
    const script = `import { readOrCreateKeyFile } from ${JSON.stringify(RELAY_DIST)};
process.stdout.write(readOrCreateKeyFile(${JSON.stringify(path)}));`;
    const keys = await Promise.all(Array.from({ length: 8 }, () => runNode(script)));
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^local:[0-9a-f]{64}$/);
    expect(readOrCreateKeyFile(path)).toBe(keys[0]);
  });
});

import { describe, expect, it } from "vitest";
import { loadOptions, type ProxyOptions } from "./load-options.js";
import { UsageError } from "./usage-error.js";

const noFile = (path: string): string => {
  throw new Error(`ENOENT: ${path}`);
};

function run(
  argv: string[],
  environment: Record<string, string> = {},
  files: Record<string, unknown> = {},
): ProxyOptions {
  const loaded = loadOptions(argv, environment, (path) => {
    if (!(path in files)) return noFile(path);
    return JSON.stringify(files[path]);
  });
  if (loaded.action !== "run") throw new Error(`expected run, got ${loaded.action}`);
  return loaded.options;
}

function refusal(
  argv: string[],
  environment: Record<string, string> = {},
  files: Record<string, unknown> = {},
): string {
  try {
    run(argv, environment, files);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).not.toContain("\n");
    return (error as Error).message;
  }
  throw new Error("expected a UsageError");
}

describe("loadOptions", () => {
  it("takes the upstream command after -- and defaults to stdio with the memory store", () => {
    const options = run(["--", "npx", "-y", "some-server", "--flag"]);
    expect(options.upstream).toEqual({
      kind: "stdio",
      command: "npx",
      args: ["-y", "some-server", "--flag"],
    });
    expect(options.listen).toEqual({ kind: "stdio" });
    expect(options.settings.store).toEqual({ kind: "memory" });
    expect(options).toMatchObject({
      maxSessions: 64,
      maxSessionsPerPrincipal: null,
      idleTimeoutMs: 1_800_000,
      stateless: false,
      headersTimeoutMs: 10_000,
      bodyTimeoutMs: 5_000,
      logLevel: "info",
      heapGrowingPercent: 20,
    });
  });

  it("reads the heap growth percent from the flag and from the environment, 0 for V8's own", () => {
    expect(run(["--heap-growing-percent", "0", "--", "srv"]).heapGrowingPercent).toBe(0);
    expect(run(["--", "srv"], { BOUNDED_MCP_HEAP_GROWING_PERCENT: "35" }).heapGrowingPercent).toBe(
      35,
    );
  });

  it("reads the per-principal limits and the connection deadlines", () => {
    const options = run([
      "--max-sessions-per-principal",
      "3",
      "--headers-timeout",
      "2s",
      "--body-timeout",
      "750ms",
      "--quota-per-principal",
      "16MiB",
      "--max-queries-per-principal",
      "2",
      "--s3-timeout",
      "4s",
      "--",
      "x",
    ]);
    expect({
      maxSessionsPerPrincipal: options.maxSessionsPerPrincipal,
      headersTimeoutMs: options.headersTimeoutMs,
      bodyTimeoutMs: options.bodyTimeoutMs,
      quotaPerPrincipal: options.settings.quotaPerPrincipal,
      maxQueriesPerPrincipal: options.settings.maxQueriesPerPrincipal,
    }).toEqual({
      maxSessionsPerPrincipal: 3,
      headersTimeoutMs: 2_000,
      bodyTimeoutMs: 750,
      quotaPerPrincipal: 16 * 1024 * 1024,
      maxQueriesPerPrincipal: 2,
    });
  });

  it("reads an HTTP upstream with repeated headers and an HTTP listen address", () => {
    const options = run([
      "--upstream-url",
      "https://mcp.example.com/mcp",
      "--upstream-header",
      "Authorization: Bearer abc",
      "--upstream-header=X-Team: core",
      "--listen",
      "http://127.0.0.1:0/mcp",
    ]);
    expect(options.upstream).toEqual({
      kind: "http",
      url: new URL("https://mcp.example.com/mcp"),
      headers: { Authorization: "Bearer abc", "X-Team": "core" },
    });
    expect(options.listen).toEqual({ kind: "http", host: "127.0.0.1", port: 0, path: "/mcp" });
  });

  it("puts flags over the environment over the config file for adapter settings", () => {
    const files = {
      "/c.json": {
        inlineBytes: 1000,
        ttl: "1h",
        namespace: "from-file",
        command: ["node", "s.js"],
      },
    };
    const environment = { BOUNDED_MCP_TTL: "30m", BOUNDED_MCP_INLINE_BYTES: "40000" };
    const options = run(["--config", "/c.json", "--inline-bytes", "48KiB"], environment, files);
    expect(options.upstream).toEqual({ kind: "stdio", command: "node", args: ["s.js"] });
    expect(options.settings).toMatchObject({
      limits: { inlineBytes: 49_152, ttlMs: 1_800_000 },
      namespace: "from-file",
    });
  });

  it("resolves the S3 store once, path-style with an endpoint unless --no-s3-force-path-style", () => {
    const s3 = ["--store", "s3", "--s3-bucket", "b", "--s3-endpoint", "http://127.0.0.1:4569"];
    expect(run([...s3, "--", "x"]).settings.store).toEqual({
      kind: "s3",
      bucket: "b",
      prefix: null,
      endpoint: "http://127.0.0.1:4569",
      region: null,
      forcePathStyle: true,
      timeoutMs: 10_000,
    });
    expect(run([...s3, "--no-s3-force-path-style", "--", "x"]).settings.store).toMatchObject({
      forcePathStyle: false,
    });
  });

  it("warns of the key ring it made up and of variables it does not read", () => {
    expect(
      run(["--", "x"], { MCP_RESPONSE_INLINE_BYTES: "2000", BOUNDED_MCP_INLINE_BYTE: "2000" })
        .warnings,
    ).toEqual([
      expect.objectContaining({ setting: "BOUNDED_MCP_KEYS" }),
      {
        setting: "MCP_RESPONSE_INLINE_BYTES",
        message:
          "MCP_RESPONSE_INLINE_BYTES is not read by bounded-mcp-proxy (MCP_RESPONSE_* are n8n-mcp-bounded's names): use the BOUNDED_MCP_* variable (see --help)",
      },
      {
        setting: "BOUNDED_MCP_INLINE_BYTE",
        message: "BOUNDED_MCP_INLINE_BYTE is not a setting of bounded-mcp-proxy (see --help)",
      },
    ]);
  });

  it("reads proxy options from BOUNDED_MCP_* variables", () => {
    const options = run(["--", "x"], {
      BOUNDED_MCP_LISTEN: "http://localhost:8080/mcp",
      BOUNDED_MCP_ALLOWED_ORIGINS: "https://a.example, https://b.example",
      BOUNDED_MCP_MAX_SESSIONS: "5",
      BOUNDED_MCP_LOG_LEVEL: "debug",
    });
    expect(options).toMatchObject({
      listen: { kind: "http", host: "localhost", port: 8080, path: "/mcp" },
      allowedOrigins: ["https://a.example", "https://b.example"],
      maxSessions: 5,
      logLevel: "debug",
    });
  });

  it("says whether a store was chosen (without one, stdio uses the user's cache folder)", () => {
    expect(run(["--", "x"]).storeChosen).toBe(false);
    expect(run(["--store", "memory", "--", "x"]).storeChosen).toBe(true);
    expect(run(["--", "x"], { BOUNDED_MCP_STORE: "memory" }).storeChosen).toBe(true);
    expect(
      run(["--config", "/c.json"], {}, { "/c.json": { store: "memory", command: ["x"] } }),
    ).toMatchObject({ storeChosen: true, settings: { store: { kind: "memory" } } });
  });

  it("turns --no-resource-links into the adapter's setting", () => {
    expect(run(["--no-resource-links", "--", "x"]).settings.resourceLinks).toBe(false);
  });

  it("answers --help and --version without needing an upstream", () => {
    expect(loadOptions(["--help"], {}, noFile)).toEqual({ action: "help" });
    expect(loadOptions(["--version"], {}, noFile)).toEqual({ action: "version" });
  });

  it.each([
    [
      ["--inline-bytes", "lots", "--", "x"],
      {},
      "--inline-bytes lots: expected a byte count such as 32768, 32KiB or 64MiB",
    ],
    [["--inline-bytes", "40", "--", "x"], {}, "--inline-bytes 40: must be at least 4096"],
    [
      ["--", "x"],
      { BOUNDED_MCP_INLINE_BYTES: "40" },
      "BOUNDED_MCP_INLINE_BYTES=40: must be at least 4096",
    ],
    [
      ["--ttl=soon", "--", "x"],
      {},
      "--ttl soon: expected milliseconds or a duration such as 30m, 24h or 7d",
    ],
    [
      ["--", "x"],
      { BOUNDED_MCP_MAX_SESSIONS: "0" },
      "BOUNDED_MCP_MAX_SESSIONS=0: must be at least 1",
    ],
    [["--bogus", "--", "x"], {}, "unknown option --bogus (see --help)"],
    [
      ["--listen", "https://0.0.0.0:1/mcp", "--", "x"],
      {},
      "--listen https://0.0.0.0:1/mcp: expected stdio or http://<host>:<port>/<path> (port 0 picks a free one)",
    ],
    [["--store", "redis", "--", "x"], {}, "--store redis: expected one of memory, fs, s3"],
    [
      ["--store", "fs", "--", "x"],
      {},
      "--store fs: needs --store-dir (the folder of the fs store)",
    ],
    [
      ["--", "x"],
      { BOUNDED_MCP_STORE: "fs" },
      "BOUNDED_MCP_STORE=fs: needs BOUNDED_MCP_STORE_DIR (the folder of the fs store)",
    ],
    [
      ["--preview-bytes", "40000", "--", "x"],
      {},
      "--preview-bytes 40000: must be less than --inline-bytes (default 32KiB), so that an envelope is smaller than what it replaces",
    ],
    [
      ["--inline-bytes", "1KiB", "--ttl", "1", "--", "x"],
      {},
      "--inline-bytes 1KiB: must be at least 4096; --ttl 1: must be at least 1s",
    ],
    [
      [],
      {},
      "no upstream: give a command after -- (bounded-mcp-proxy -- npx some-mcp-server) or --upstream-url <url>",
    ],
    [
      ["--upstream-url", "https://x", "--", "y"],
      {},
      "--upstream-url and an upstream command were both given: use one of them",
    ],
    [["--upstream-url", "ftp://x"], {}, "--upstream-url ftp://x: expected an http(s) URL"],
    [
      ["--upstream-header", "no colon", "--", "x"],
      {},
      '--upstream-header: expected "Name: value", got "no colon"',
    ],
    [
      ["--listen", "http://127.0.0.1:0/mcp", "--stateless", "--", "x"],
      {},
      "--stateless: needs --auth-tokens (without sessions the caller scope comes from the token)",
    ],
    [
      ["--stateless", "--auth-tokens", "/t.json", "--", "x"],
      {},
      "--stateless: applies to an http --listen (default stdio) only: stdio serves one client",
    ],
    [
      ["--log-level", "loud", "--", "x"],
      {},
      "--log-level loud: expected one of debug, info, warn, error, silent",
    ],
    [
      ["--config", "/missing.json"],
      {},
      "--config /missing.json: cannot read it (ENOENT: /missing.json)",
    ],
    [["--inline-bytes"], {}, "--inline-bytes needs a value"],
    [["server.js"], {}, 'unexpected argument "server.js": put the upstream command after --'],
  ] as const)("refuses %j with one line naming the option", (argv, environment, message) => {
    expect(refusal([...argv], environment)).toBe(message);
  });

  it("refuses an unknown config-file key and names the file", () => {
    expect(refusal(["--config", "/c.json"], {}, { "/c.json": { inline_bytes: 5 } })).toBe(
      '--config /c.json: unknown key "inline_bytes"',
    );
  });

  it("names the config file key of a bad value from the file", () => {
    expect(refusal(["--config", "/c.json", "--", "x"], {}, { "/c.json": { ttl: "forever" } })).toBe(
      '"ttl": "forever" in /c.json: expected milliseconds or a duration such as 30m, 24h or 7d',
    );
  });
});

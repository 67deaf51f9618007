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
    expect(options.adapterEnvironment).toEqual({});
    expect(options).toMatchObject({
      maxSessions: 64,
      idleTimeoutMs: 1_800_000,
      stateless: false,
      logLevel: "info",
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
    const environment = { BOUNDED_MCP_TTL: "30m", MCP_RESPONSE_INLINE_BYTES: "2000" };
    const options = run(["--config", "/c.json", "--inline-bytes", "48KiB"], environment, files);
    expect(options.upstream).toEqual({ kind: "stdio", command: "node", args: ["s.js"] });
    expect(options.adapterEnvironment).toEqual({
      BOUNDED_MCP_INLINE_BYTES: "48KiB",
      BOUNDED_MCP_TTL: "30m",
      BOUNDED_MCP_NAMESPACE: "from-file",
    });
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

  it("turns --no-resource-links into the adapter's setting", () => {
    expect(run(["--no-resource-links", "--", "x"]).adapterEnvironment).toEqual({
      BOUNDED_MCP_RESOURCE_LINKS: "false",
    });
  });

  it("answers --help and --version without needing an upstream", () => {
    expect(loadOptions(["--help"], {}, noFile)).toEqual({ action: "help" });
    expect(loadOptions(["--version"], {}, noFile)).toEqual({ action: "version" });
  });

  it.each([
    [
      ["--inline-bytes", "lots", "--", "x"],
      {},
      '--inline-bytes: expected a byte count such as 32768, 32KiB or 64MiB, got "lots"',
    ],
    [
      ["--ttl=soon", "--", "x"],
      {},
      '--ttl: expected milliseconds or a duration such as 30m, 24h or 7d, got "soon"',
    ],
    [
      ["--", "x"],
      { BOUNDED_MCP_MAX_SESSIONS: "0" },
      'BOUNDED_MCP_MAX_SESSIONS: expected a whole number above 0, got "0"',
    ],
    [["--bogus", "--", "x"], {}, "unknown option --bogus (see --help)"],
    [
      ["--listen", "https://0.0.0.0:1/mcp", "--", "x"],
      {},
      '--listen: expected stdio or http://<host>:<port>/<path> (port 0 picks a free one), got "https://0.0.0.0:1/mcp"',
    ],
    [["--store", "redis", "--", "x"], {}, '--store: expected memory, fs or s3, got "redis"'],
    [
      [],
      {},
      "no upstream: give a command after -- (bounded-mcp-proxy -- npx some-mcp-server) or --upstream-url <url>",
    ],
    [
      ["--upstream-url", "ftp://x", "--", "y"],
      {},
      "--upstream-url and an upstream command were both given: use one of them",
    ],
    [
      ["--upstream-header", "no colon", "--", "x"],
      {},
      '--upstream-header: expected "Name: value", got "no colon"',
    ],
    [
      ["--listen", "http://127.0.0.1:0/mcp", "--stateless", "--", "x"],
      {},
      "--stateless needs --auth-tokens: without sessions the caller scope comes from the token",
    ],
    [
      ["--log-level", "loud", "--", "x"],
      {},
      '--log-level: expected one of debug, info, warn, error, silent, got "loud"',
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
      '/c.json: ttl: expected milliseconds or a duration such as 30m, 24h or 7d, got "forever"',
    );
  });
});

import { type ChildProcess, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { PROXY_CLI } from "./paths.js";

/** A proxy process listening on HTTP. */
export interface HttpProxyProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the proxy wrote to stderr so far. */
  stderr(): string;
  /** Resolves once the proxy has written `text` to stderr (at once if it already has). */
  logged(text: string): Promise<void>;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  readonly exited: Promise<number | string>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<number | string>;
}

/** Environment of every spawned proxy: quiet logs unless a test asks for more. */
export function proxyEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith("BOUNDED_MCP_")) environment[name] = value;
  }
  return { ...environment, BOUNDED_MCP_LOG_LEVEL: "warn", ...extra };
}

/** Spawns `node dist/cli.js <args>` and waits for its `listening on <url>` line. */
export async function startHttpProxy(
  args: readonly string[],
  environment: Record<string, string> = {},
): Promise<HttpProxyProcess> {
  const child = spawn(process.execPath, [PROXY_CLI, ...args], {
    env: proxyEnvironment(environment),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")),
  );
  const logged = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!stderr.includes(text)) return false;
        child.stderr.off("data", check);
        resolve();
        return true;
      };
      if (check()) return;
      child.stderr.on("data", check);
      void exited.then(() => {
        if (!check()) reject(new Error(`proxy exited without logging ${text}: ${stderr}`));
      });
    });
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
      const match = /listening on (\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) =>
      reject(new Error(`proxy exited (${code}) before listening: ${stderr}`)),
    );
  });
  return {
    url,
    child,
    stderr: () => stderr,
    logged,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** An SDK client of an HTTP proxy, with an optional bearer token. */
export async function connectHttpClient(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: "proxy-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(
      new URL(url),
      token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } },
    ),
  );
  return client;
}

/** An SDK client that spawns the proxy over stdio with `args` (options, `--`, the upstream). */
export async function connectStdioProxy(
  args: readonly string[],
  environment: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: "proxy-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [PROXY_CLI, ...args],
      env: proxyEnvironment(environment),
      stderr: "ignore",
    }),
  );
  return client;
}

/** An SDK client of an upstream server spawned directly (the baseline of "deep-equal"). */
export async function connectDirect(command: string, args: readonly string[]): Promise<Client> {
  const client = new Client({ name: "proxy-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command, args: [...args], stderr: "ignore" }));
  return client;
}

import type { Readable, Writable } from "node:stream";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/** The SDK's safe child environment (HOME, LOGNAME, PATH, SHELL, TERM, USER from this process). */
export function defaultChildEnvironment(): Record<string, string> {
  return getDefaultEnvironment();
}

/** The SDK's streamable HTTP client transport to `url`, sending `headers` with every request. */
export function createHttpClientTransport(
  url: URL,
  headers: Readonly<Record<string, string>> | undefined,
): Transport {
  return new StreamableHTTPClientTransport(url, { requestInit: { headers: { ...headers } } });
}

/** The SDK's stdio server transport over `stdin` and `stdout` (a program's own, by default). */
export function createStdioServerTransport(stdin?: Readable, stdout?: Writable): Transport {
  return new StdioServerTransport(stdin, stdout);
}

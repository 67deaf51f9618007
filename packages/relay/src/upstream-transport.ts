import type { Logger } from "@bounded-mcp/mcp-adapter";
import { createHttpUpstreamTransport } from "./http-upstream-transport.js";
import { createLinearStdioClientTransport } from "./linear-stdio-client-transport.js";
import type { Transport } from "./sdk/types.js";

/** An upstream child process spoken to over stdio (the linear transport, docs/sdk-notes.md 7). */
export interface StdioUpstream {
  kind: "stdio";
  command: string;
  args?: readonly string[];
  /** Merged over the SDK's safe defaults (HOME, LOGNAME, PATH, SHELL, TERM, USER). */
  env?: Record<string, string>;
  cwd?: string;
  /** Names the upstream in logs and errors; default the command's base name. */
  name?: string;
  /** Put before each stderr line in the logs; default `"[upstream] "`. */
  stderrPrefix?: string;
}

/** An upstream MCP server over streamable HTTP (the SDK's client transport). */
export interface HttpUpstream {
  kind: "http";
  url: string | URL;
  /** Sent with every request (e.g. `Authorization`). */
  headers?: Readonly<Record<string, string>>;
  /** Names the upstream in logs and errors; default the URL's host. */
  name?: string;
}

/**
 * An upstream reached through a transport the caller builds: an in-process server over an
 * in-memory pair, a custom transport. Its messages are not capped by the relay.
 */
export interface TransportUpstream {
  kind: "transport";
  /** A fresh, unstarted client transport; called again for each restart after a close. */
  createTransport: () => Transport;
  /** Names the upstream in logs and errors. */
  name: string;
}

/** Where the relay's upstream is. */
export type UpstreamSpec = StdioUpstream | HttpUpstream | TransportUpstream;

/** The name of an upstream in logs and errors. */
export function upstreamName(spec: UpstreamSpec): string {
  if (spec.name !== undefined) return spec.name;
  if (spec.kind === "http") return new URL(spec.url).host;
  if (spec.kind === "transport") return "upstream";
  return spec.command.split(/[\\/]/).pop() ?? spec.command;
}

/**
 * A fresh transport to the upstream (one child process per call for stdio). stdio uses the
 * linear transport with `maxMessageBytes` (1.3 x artifactMaxBytes); HTTP uses the SDK's
 * StreamableHTTPClientTransport (createHttpUpstreamTransport), whose response size is not capped
 * here; over both, a response whose result is not a result object (`result: null`) fails its call
 * at once, and a result's structuredContent keeps the text it arrived as (stored as the
 * upstream's bytes).
 */
export function createUpstreamTransport(
  spec: UpstreamSpec,
  options: { maxMessageBytes: number; logger: Logger },
): Transport {
  if (spec.kind === "transport") return spec.createTransport();
  if (spec.kind === "http") {
    return createHttpUpstreamTransport({
      url: new URL(spec.url),
      headers: spec.headers,
      name: upstreamName(spec),
    });
  }
  return createLinearStdioClientTransport({
    command: spec.command,
    ...(spec.args === undefined ? {} : { args: spec.args }),
    ...(spec.env === undefined ? {} : { env: spec.env }),
    ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
    ...(spec.stderrPrefix === undefined ? {} : { stderrPrefix: spec.stderrPrefix }),
    name: upstreamName(spec),
    maxMessageBytes: options.maxMessageBytes,
    logger: options.logger,
  });
}

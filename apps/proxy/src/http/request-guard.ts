import type { IncomingMessage } from "node:http";

const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1"];
const WILDCARD_HOSTS = ["0.0.0.0", "::"];

/** Which Host and Origin headers the HTTP server accepts; see {@link createRequestGuard}. */
export interface RequestGuard {
  /** False when the Host header names a host this server was not told it is (DNS rebinding). */
  hostAllowed(request: IncomingMessage): boolean;
  /** False when a browser sent an Origin other than the listen address or an allowed origin. */
  originAllowed(request: IncomingMessage): boolean;
}

function hostPort(host: string, port: number): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The Host header forms of a name: with the port, and bare on port 80 (browsers omit it). */
function hostForms(host: string, port: number): string[] {
  const bare = host.includes(":") ? `[${host}]` : host;
  return port === 80 ? [hostPort(host, port), bare] : [hostPort(host, port)];
}

/**
 * Host and Origin checks against DNS rebinding and cross-site requests from browsers. Accepted
 * hosts: the listen address (with every loopback alias when it is a loopback address) and
 * `--allowed-host`; on a wildcard address (0.0.0.0, ::) without `--allowed-host` any Host passes,
 * because the public name is unknown. Accepted origins: the listen address's own origins and
 * `--allowed-origin`. A request without Origin (every non-browser client) passes the origin check.
 */
export function createRequestGuard(options: {
  host: string;
  port: number;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
}): RequestGuard {
  const names = LOOPBACK_HOSTS.includes(options.host) ? LOOPBACK_HOSTS : [options.host];
  const wildcard = WILDCARD_HOSTS.includes(options.host);
  const ownHosts = names.flatMap((name) => hostForms(name, options.port));
  const hosts = new Set([...ownHosts, ...options.allowedHosts.map((host) => host.toLowerCase())]);
  const origins = new Set([...ownHosts.map((host) => `http://${host}`), ...options.allowedOrigins]);
  return {
    hostAllowed(request) {
      if (wildcard && options.allowedHosts.length === 0) return true;
      const host = request.headers.host?.toLowerCase();
      return host !== undefined && hosts.has(host);
    },
    originAllowed(request) {
      const origin = request.headers.origin;
      return origin === undefined || origins.has(origin);
    },
  };
}

import { createHash } from "node:crypto";
import type { KeyRing } from "@bounded-mcp/query-core";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";

/**
 * What the adapter knows about the caller of one request. A low-level `Server` handler can pass
 * its `extra` (RequestHandlerExtra) as is: it carries `authInfo` and `sessionId`.
 */
export interface ScopeContext {
  /** The authenticated principal of an HTTP request (streamable HTTP with an auth middleware). */
  authInfo?: AuthInfo | undefined;
  /** The transport's session id (stateful streamable HTTP). */
  sessionId?: string | undefined;
  /** The tool being called, when known (bounding); absent for queries and descriptor reads. */
  toolName?: string | undefined;
  /**
   * Aborts when the request is cancelled (RequestHandlerExtra.signal). A query still waiting for
   * its caller's turn is then dropped instead of run for nobody.
   */
  signal?: AbortSignal | undefined;
}

/**
 * Returns the caller's scope as an opaque string, or undefined to fall back to the default chain
 * (AuthInfo.clientId, then the session id, then the local scope). Called once per request, so it
 * must be cheap; it may be async (a lookup of the tenant behind a token).
 */
export type ScopeResolver = (
  context: ScopeContext,
) => string | undefined | Promise<string | undefined>;

/** Where a caller's scope came from; part of the hashed scope so kinds never collide. */
export type ScopeKind = "resolver" | "client" | "session" | "local";

/** A caller's scope: the hash artifacts are bound to (stored as ArtifactMeta.scopeHash). */
export interface CallerScope {
  kind: ScopeKind;
  /** Lowercase hex sha256; never contains the principal itself. */
  hash: string;
}

/** Computes a caller's scope: resolver, else AuthInfo.clientId, else session id, else local. */
export type ScopeFinder = (context: ScopeContext) => Promise<CallerScope>;

function hashScope(namespace: string, kind: ScopeKind, value: string): string {
  return createHash("sha256")
    .update(`bounded-mcp/scope\0${namespace}\0${kind}\0${value}`)
    .digest("hex");
}

/**
 * The one local scope of a namespace (stdio, where there is exactly one caller): derived from
 * the key ring's signing key, so artifacts survive a restart when BOUNDED_MCP_KEYS is set and
 * nobody without the keys can compute it. Rotating the signing key starts a new local scope.
 */
export function deriveLocalScope(keyRing: KeyRing, namespace: string): CallerScope {
  const mac = keyRing.mac(keyRing.signingKid, `bounded-mcp/local-scope\0${namespace}`);
  if (mac === null) throw new Error("the key ring has no signing key");
  return { kind: "local", hash: hashScope(namespace, "local", mac.toString("base64url")) };
}

/**
 * Creates the scope finder of one adapter (SPEC.md §7): the resolver's answer when it
 * gives one, else the HTTP principal (`AuthInfo.clientId`), else the session id, else the local
 * scope. Values are hashed with the namespace and their kind, so a session id can never collide
 * with a client id of the same spelling.
 */
export function createScopeFinder(options: {
  keyRing: KeyRing;
  namespace: string;
  resolver?: ScopeResolver | undefined;
}): ScopeFinder {
  const local = deriveLocalScope(options.keyRing, options.namespace);
  const scoped = (kind: ScopeKind, value: string): CallerScope => ({
    kind,
    hash: hashScope(options.namespace, kind, value),
  });
  return async (context) => {
    const resolved = options.resolver === undefined ? undefined : await options.resolver(context);
    if (typeof resolved === "string" && resolved !== "") return scoped("resolver", resolved);
    const clientId = context.authInfo?.clientId;
    if (typeof clientId === "string" && clientId !== "") return scoped("client", clientId);
    if (typeof context.sessionId === "string" && context.sessionId !== "") {
      return scoped("session", context.sessionId);
    }
    return local;
  };
}

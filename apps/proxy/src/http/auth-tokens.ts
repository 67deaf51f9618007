import { createHash } from "node:crypto";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { UsageError } from "../options/usage-error.js";

/** Bearer tokens and the principal each one stands for; see {@link loadAuthTokens}. */
export interface AuthTokens {
  /** The caller behind an `Authorization` header value, or null when it is missing or unknown. */
  authenticate(header: string | undefined): AuthInfo | null;
}

function digest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Reads `--auth-tokens <file>`: a JSON object mapping each bearer token to its principal name,
 * e.g. `{"t0k3n-a": "alice"}`. The principal becomes `AuthInfo.clientId`, which the adapter uses
 * as the caller scope, so two principals never see each other's artifacts. Tokens are looked up
 * by their sha256 digest (no early-exit string comparison on the secret); a header value that
 * authenticated is remembered (a few per token), so later requests skip the hash.
 */
export function loadAuthTokens(path: string, readFile: (path: string) => string): AuthTokens {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFile(path));
  } catch (error) {
    throw new UsageError(`--auth-tokens ${path}: cannot read it (${(error as Error).message})`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new UsageError(
      `--auth-tokens ${path}: expected a JSON object {"<token>": "<principal>"}`,
    );
  }
  const principals = new Map<string, { token: string; principal: string }>();
  for (const [token, principal] of Object.entries(parsed)) {
    if (token.length < 8 || /\s/.test(token)) {
      throw new UsageError(`--auth-tokens ${path}: a token must be 8+ characters without spaces`);
    }
    if (typeof principal !== "string" || principal === "") {
      throw new UsageError(`--auth-tokens ${path}: the principal of each token must be a name`);
    }
    principals.set(digest(token), { token, principal });
  }
  if (principals.size === 0) throw new UsageError(`--auth-tokens ${path}: no tokens in it`);
  // Header values that authenticated, so a session's every request does not hash its token
  // again; only valid ones are kept, at most a few forms per token.
  const known = new Map<string, { token: string; principal: string }>();
  const knownLimit = principals.size * 4;
  return {
    authenticate(header) {
      if (header === undefined) return null;
      let entry = known.get(header);
      if (entry === undefined) {
        const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
        if (!match) return null;
        entry = principals.get(digest(match[1]!));
        if (entry === undefined) return null;
        if (known.size < knownLimit) known.set(header, entry);
      }
      return { token: entry.token, clientId: entry.principal, scopes: [] };
    },
  };
}

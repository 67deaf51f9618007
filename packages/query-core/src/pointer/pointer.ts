import { ContractError, DEFAULT_LIMITS } from "@bounded-mcp/contract";
import { describeType, isJsonObject } from "../query/json-values.js";

/** Where and why a pointer stopped resolving (SPEC.md §6 INVALID_RESPONSE_PATH details). */
export interface PointerMiss {
  found: false;
  /** The longest prefix that resolved, as a pointer ("" for the root). */
  resolvedPrefix: string;
  /** The reference token that did not resolve below resolvedPrefix. */
  failedAt: string;
  /** The JSON type of the value at resolvedPrefix (`object`, `array`, `string`, ...). */
  typeAtFailure: string;
  /** Up to 30 children of resolvedPrefix, as absolute pointers. */
  availableChildren: string[];
}

/** The outcome of resolvePointer: the value, or where and why resolution stopped. */
export type PointerResolution = { found: true; value: unknown } | PointerMiss;

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/**
 * Parses an RFC 6901 JSON Pointer into its unescaped reference tokens (`~1` is `/`, `~0` is `~`).
 * `""` is the whole document and `"/"` the empty key. Throws ContractError INVALID_RESPONSE_PATH
 * for a pointer without its leading `/` (with `suggestedPath`) or with a `~` not followed by 0 or 1.
 */
export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) {
    throw new ContractError({
      code: "INVALID_RESPONSE_PATH",
      message: `"${pointer}" is not an RFC 6901 JSON Pointer: a non-empty pointer starts with "/". Use "/${pointer}".`,
      details: { suggestedPath: `/${pointer}` },
    });
  }
  const raw = pointer.slice(1).split("/");
  const tokens: string[] = new Array(raw.length);
  for (let index = 0; index < raw.length; index += 1) {
    const token = raw[index] as string;
    if (!token.includes("~")) {
      tokens[index] = token;
      continue;
    }
    if (/~(?![01])/.test(token)) {
      throw new ContractError({
        code: "INVALID_RESPONSE_PATH",
        message: `"${pointer}" is not an RFC 6901 JSON Pointer: "~" must be followed by 0 (for "~") or 1 (for "/").`,
        details: { failedAt: token },
      });
    }
    tokens[index] = token.replaceAll("~1", "/").replaceAll("~0", "~");
  }
  return tokens;
}

/** Escapes one reference token for a pointer (`~` as `~0`, `/` as `~1`). */
export function escapePointerToken(token: string): string {
  if (!token.includes("~") && !token.includes("/")) return token;
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Formats reference tokens as an RFC 6901 pointer; the inverse of parsePointer. */
export function formatPointer(tokens: readonly string[]): string {
  let pointer = "";
  for (const token of tokens) pointer += `/${escapePointerToken(token)}`;
  return pointer;
}

/**
 * Reads one step: an own key of an object, or a canonical index (no `-`, no leading zeros) of an
 * array. Inherited properties never resolve, so `__proto__` or `constructor` are plain data.
 */
export function childOf(container: unknown, token: string): { found: boolean; value: unknown } {
  if (Array.isArray(container)) {
    if (!ARRAY_INDEX.test(token)) return MISSING;
    const index = Number(token);
    return index < container.length ? { found: true, value: container[index] } : MISSING;
  }
  if (isJsonObject(container) && Object.hasOwn(container, token)) {
    return { found: true, value: container[token] };
  }
  return MISSING;
}

const MISSING = Object.freeze({ found: false, value: undefined });

/** Up to `limit` children of a value as absolute pointers below `prefix`. */
export function listChildren(
  value: unknown,
  prefix: string,
  limit: number = DEFAULT_LIMITS.maxAvailableChildren,
): string[] {
  const children: string[] = [];
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length && children.length < limit; index += 1) {
      children.push(`${prefix}/${index}`);
    }
  } else if (isJsonObject(value)) {
    for (const key in value) {
      if (children.length >= limit) break;
      if (Object.hasOwn(value, key)) children.push(`${prefix}/${escapePointerToken(key)}`);
    }
  }
  return children;
}

/**
 * Resolves an RFC 6901 pointer against a document. When it does not resolve, says where it stopped
 * (resolvedPrefix), on which token (failedAt), what was there (typeAtFailure) and what exists
 * instead (availableChildren, at most 30). Throws like parsePointer for a malformed pointer.
 */
export function resolvePointer(document: unknown, pointer: string): PointerResolution {
  const tokens = parsePointer(pointer);
  let current = document;
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] as string;
    const step = childOf(current, token);
    if (!step.found) {
      const resolvedPrefix = formatPointer(tokens.slice(0, index));
      return {
        found: false,
        resolvedPrefix,
        failedAt: token,
        typeAtFailure: describeType(current),
        availableChildren: listChildren(current, resolvedPrefix),
      };
    }
    current = step.value;
  }
  return { found: true, value: current };
}

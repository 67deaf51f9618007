import { ContractError, DEFAULT_LIMITS, type QueryRequest } from "@bounded-mcp/contract";
import {
  escapePointerToken,
  formatPointer,
  type PointerMiss,
  parsePointer,
  resolvePointer,
} from "../pointer/pointer.js";
import { rankByCloseness } from "./closest-names.js";
import { compileField, resolvesOnAny } from "./compiled-path.js";
import { isJsonObject } from "./json-values.js";

/** The value a request selects and where it lives. */
export interface SelectedValue {
  /** The responsePath echoed in the result: the path as sent, or responseRoot when omitted. */
  responsePath: string;
  /** The absolute pointer of the selected value. */
  pointer: string;
  value: unknown;
  /** Set when the value was found only as responseRoot + responsePath (§4.1). */
  inferredResponsePath?: string;
}

/** How a responsePath that names an item key below a collection is read instead. */
interface ItemKeySuggestion {
  /** The collection's pointer. */
  responsePath: string;
  /** The rest of the path, as a field of each item. */
  field: string;
}

/**
 * A miss whose resolved prefix is an array and whose rest resolves on some of its items (e.g.
 * `/properties/name`, where `name` is a key of each property): the collection plus a field.
 */
function itemKeySuggestion(
  document: unknown,
  pointer: string,
  miss: PointerMiss,
): ItemKeySuggestion | null {
  const container = resolvePointer(document, miss.resolvedPrefix);
  if (!container.found || !Array.isArray(container.value)) return null;
  const rest = parsePointer(pointer).slice(parsePointer(miss.resolvedPrefix).length);
  const field = rest.length === 1 ? (rest[0] as string) : formatPointer(rest);
  const compiled = compileField(field);
  if (!resolvesOnAny(container.value, null, compiled)) return null;
  return { responsePath: miss.resolvedPrefix, field };
}

/** The children of the miss's container, the names closest to what was typed first (at most 30). */
function rankedChildren(document: unknown, miss: PointerMiss): string[] {
  const container = resolvePointer(document, miss.resolvedPrefix);
  if (!container.found || !isJsonObject(container.value)) return miss.availableChildren;
  return rankByCloseness(Object.keys(container.value), miss.failedAt)
    .slice(0, DEFAULT_LIMITS.maxAvailableChildren)
    .map((key) => `${miss.resolvedPrefix}/${escapePointerToken(key)}`);
}

/** The pointer a dotted path (`/a.b`) spells (`/a/b`), when that resolves. */
function dottedSuggestion(document: unknown, pointer: string): string | null {
  if (!pointer.includes(".")) return null;
  const tokens = parsePointer(pointer).flatMap((token) => token.split("."));
  if (tokens.some((token) => token === "")) return null;
  const dotted = formatPointer(tokens);
  return dotted !== pointer && resolvePointer(document, dotted).found ? dotted : null;
}

/** The request sent back with the collection as responsePath and the rest as its one field. */
function suggestedRequestOf(
  request: QueryRequest,
  suggestion: ItemKeySuggestion,
): Record<string, unknown> | null {
  if (
    request.fields !== undefined ||
    request.describe === true ||
    request.textSearch !== undefined ||
    request.aggregate !== undefined
  ) {
    return null;
  }
  const { cursor: _cursor, ...rest } = request;
  return { ...rest, responsePath: suggestion.responsePath, fields: [suggestion.field] };
}

function missError(
  document: unknown,
  request: QueryRequest,
  responsePath: string,
  miss: PointerMiss,
  tried: string,
  fallback: { pointer: string; miss: PointerMiss } | null,
): ContractError {
  const itemKey =
    itemKeySuggestion(document, responsePath, miss) ??
    (fallback === null ? null : itemKeySuggestion(document, fallback.pointer, fallback.miss));
  const children = rankedChildren(document, miss);
  const listed = children.length
    ? ` Available children of "${miss.resolvedPrefix}": ${children.slice(0, 10).join(", ")}.`
    : "";
  const details: Record<string, unknown> = {
    resolvedPrefix: miss.resolvedPrefix,
    failedAt: miss.failedAt,
    typeAtFailure: miss.typeAtFailure,
    availableChildren: children,
  };
  let advice = "";
  if (itemKey !== null) {
    details.suggestedPath = itemKey.responsePath;
    const suggestedRequest = suggestedRequestOf(request, itemKey);
    if (suggestedRequest !== null) details.suggestedRequest = suggestedRequest;
    advice = ` "${itemKey.responsePath}" is an array and ${JSON.stringify(itemKey.field)} is a field of its items: send responsePath "${itemKey.responsePath}" with fields [${JSON.stringify(itemKey.field)}]${suggestedRequest === null ? "" : " (details.suggestedRequest)"}.`;
  } else {
    const dotted = dottedSuggestion(document, responsePath);
    if (dotted !== null) {
      details.suggestedPath = dotted;
      advice = ` A pointer separates its tokens with "/", and a dot is part of a key: did you mean "${dotted}"?`;
    }
  }
  return new ContractError({
    code: "INVALID_RESPONSE_PATH",
    message: `responsePath "${responsePath}" does not resolve${tried}: "${miss.failedAt}" is not a child of the ${miss.typeAtFailure} at "${miss.resolvedPrefix}".${advice}${listed}${advice === "" ? " Use describe to see the shape." : ""}`,
    details,
  });
}

/**
 * Resolves responsePath (SPEC.md §4.1): omitted means the artifact's responseRoot; a
 * non-empty path must start with `/` (else INVALID_RESPONSE_PATH with `suggestedPath`); it is
 * resolved exactly first, then once as responseRoot + path, reported as inferredResponsePath.
 * A miss reports where the exact attempt stopped, lists the children of that place closest to
 * what was typed first, and suggests the collection plus a field when the path named a key of
 * a collection's items (`/properties/name`: responsePath `/properties`, fields `["name"]`), or
 * the `/`-separated form of a path written with dots.
 */
export function selectResponsePath(
  document: unknown,
  request: QueryRequest,
  responseRoot: string,
): SelectedValue {
  const responsePath = request.responsePath ?? responseRoot;
  if (responsePath !== "" && !responsePath.startsWith("/")) {
    throw new ContractError({
      code: "INVALID_RESPONSE_PATH",
      message: `responsePath "${responsePath}" is not an RFC 6901 JSON Pointer: a non-empty path starts with "/". Send responsePath "/${responsePath}".`,
      details: { suggestedPath: `/${responsePath}` },
    });
  }
  const exact = resolvePointer(document, responsePath);
  if (exact.found) return { responsePath, pointer: responsePath, value: exact.value };
  const fallback = `${responseRoot}${responsePath}`;
  const fallbackTried =
    request.responsePath !== undefined && responseRoot !== "" && responsePath !== "";
  let fallbackMiss: PointerMiss | null = null;
  if (fallbackTried) {
    const relative = resolvePointer(document, fallback);
    if (relative.found) {
      return {
        responsePath,
        pointer: fallback,
        value: relative.value,
        inferredResponsePath: fallback,
      };
    }
    fallbackMiss = relative;
  }
  const tried = fallbackTried
    ? ` (also tried "${fallback}" below responseRoot "${responseRoot}")`
    : "";
  throw missError(
    document,
    request,
    responsePath,
    exact,
    tried,
    fallbackMiss === null ? null : { pointer: fallback, miss: fallbackMiss },
  );
}

import { ContractError } from "@bounded-mcp/contract";
import { escapePointerToken } from "../pointer/pointer.js";
import { type CompiledPath, compileField, resolvesOnAny } from "./compiled-path.js";
import { isJsonObject } from "./json-values.js";

// The caller-correctable errors of fields and filter paths (SPEC.md §6 INVALID_FIELD_PATH,
// FILTER_PATH_UNRESOLVED): what was sent, what the items hold, and the path that would work.

/** At most this many item keys are listed in an error. */
const MAX_ITEM_KEYS = 30;

/** A pointer as a message names it: quoted, or "the document root" for "". */
export function where(pointer: string): string {
  return pointer === "" ? "the document root" : `"${pointer}"`;
}

function sampleKeys(items: readonly unknown[]): string[] {
  const keys = new Set<string>();
  for (const item of items.slice(0, 20)) {
    if (!isJsonObject(item)) continue;
    for (const key of Object.keys(item)) {
      if (keys.size >= MAX_ITEM_KEYS) return [...keys];
      keys.add(key);
    }
  }
  return [...keys];
}

/** The pointer a dotted path (`a.b.c`, `/a.b.c`) spells: `/a/b/c`; null when it has no dot. */
function dottedPointer(label: string): string | null {
  const body = label.startsWith("/") ? label.slice(1) : label;
  if (!body.includes(".")) return null;
  const tokens = body.split("/").flatMap((token) => token.split("."));
  if (tokens.some((token) => token === "")) return null;
  return `/${tokens.map(escapePointerToken).join("/")}`;
}

/**
 * The pointer a path that resolves on no item was probably meant as, when that pointer resolves
 * on some item: `/key` for a literal key (`name`), `/a/b/c` for a path written with dots
 * (`a.b.c` or `/a.b.c`, as jq or JavaScript would write it). Null when neither resolves; never
 * applied silently, only suggested.
 */
export function suggestedPointerFor(path: CompiledPath, items: readonly unknown[]): string | null {
  const candidates: string[] = [];
  if (path.literal) candidates.push(`/${path.label}`);
  const dotted = dottedPointer(path.label);
  if (dotted !== null && dotted !== path.label) candidates.push(dotted);
  for (const candidate of candidates) {
    const compiled = compileFieldOrNull(candidate);
    if (compiled !== null && resolvesOnAny(items, null, compiled)) return candidate;
  }
  return null;
}

/** Why a suggested pointer is what was meant: a literal key, or dots that are no separators. */
function suggestionReason(label: string, suggested: string): string {
  return suggested === `/${label}`
    ? 'a path without a leading "/" is one literal key of each item'
    : 'a pointer separates its tokens with "/", and a dot is part of a key';
}

/**
 * INVALID_FIELD_PATH with `suggestedField` when a field resolves on no item but its pointer form
 * (`/field`, or `/a/b` for `a.b`) does (never silently changing its meaning); null when none does.
 */
export function suggestedFieldError(
  fields: readonly CompiledPath[],
  items: readonly unknown[],
  pointer: string,
): ContractError | null {
  for (const field of fields) {
    if (resolvesOnAny(items, null, field)) continue;
    const suggested = suggestedPointerFor(field, items);
    if (suggested !== null) {
      return new ContractError({
        code: "INVALID_FIELD_PATH",
        message:
          suggested === `/${field.label}`
            ? `Field "${field.label}" is not a key of the items of ${where(pointer)}, but "${suggested}" resolves: a field without a leading "/" is a literal key. Did you mean "${suggested}"?`
            : `Field "${field.label}" resolves on no item of ${where(pointer)}, but "${suggested}" does: ${suggestionReason(field.label, suggested)}. Did you mean "${suggested}"?`,
        details: { field: field.label, suggestedField: suggested },
      });
    }
  }
  return null;
}

/** INVALID_FIELD_PATH when no field resolves on any item: a suggestion, else the item keys. */
export function unresolvedFields(
  fields: readonly CompiledPath[],
  items: readonly unknown[],
  pointer: string,
  fixedItemKeys?: string[],
): ContractError {
  const suggestion =
    fixedItemKeys === undefined ? suggestedFieldError(fields, items, pointer) : null;
  if (suggestion !== null) return suggestion;
  const itemKeys = fixedItemKeys ?? sampleKeys(items);
  const first = fields[0]?.label ?? "";
  return new ContractError({
    code: "INVALID_FIELD_PATH",
    message: `No field matched any property of the items of ${where(pointer)} (first: "${first}"). Fields are literal keys (e.g. "id") or pointers relative to each item (e.g. "/parameters/jsCode"). Item keys: ${itemKeys.slice(0, 10).join(", ") || "none"}.`,
    details: { field: first, itemKeys },
  });
}

/** A path that resolves on no item, and what reads it (the message names the role). */
export interface UnresolvedPath {
  path: CompiledPath;
  role: "filter" | "sort" | "groupBy" | "metric";
}

function quoted(paths: readonly UnresolvedPath[]): string {
  return paths.map((entry) => `${entry.role} path "${entry.path.label}"`).join(", ");
}

/**
 * FILTER_PATH_UNRESOLVED for every filter, sort, groupBy or metric path that resolves on no item
 * (SPEC.md §4.6, §9 rule 5), reported at once: `path` (the first), `paths` (all, as sent),
 * `itemKeys` and, for a literal path whose pointer form resolves, `suggestedPath`.
 */
export function unresolvedPaths(
  unresolved: readonly UnresolvedPath[],
  items: readonly unknown[],
  pointer: string,
  fixedItemKeys?: string[],
  noun = "items",
): ContractError {
  const itemKeys = fixedItemKeys ?? sampleKeys(items);
  const first = (unresolved[0] as UnresolvedPath).path;
  const labels = [...new Set(unresolved.map((entry) => entry.path.label))];
  const details: Record<string, unknown> = { path: first.label, paths: labels, itemKeys };
  // A literal key whose pointer form resolves, or a path written with dots (`a.b.c`), suggests
  // the pointer that resolves: the first such path's in suggestedPath, every one's in
  // suggestedPaths when there are several.
  const suggestions = new Map<string, string>();
  if (fixedItemKeys === undefined) {
    for (const entry of unresolved) {
      const suggested = suggestedPointerFor(entry.path, items);
      if (suggested !== null && !suggestions.has(entry.path.label)) {
        suggestions.set(entry.path.label, suggested);
      }
    }
  }
  const [firstSuggestion] = suggestions;
  if (firstSuggestion !== undefined) details.suggestedPath = firstSuggestion[1];
  if (suggestions.size > 1) details.suggestedPaths = Object.fromEntries(suggestions);
  const named = [...suggestions].map(([label, suggested]) =>
    suggestions.size === 1 ? `"${suggested}"` : `"${suggested}" for "${label}"`,
  );
  const dotted = [...suggestions].some(([label, suggested]) => suggested !== `/${label}`);
  const hint =
    firstSuggestion === undefined
      ? ""
      : ` Did you mean ${named.join(", ")}?${dotted ? ` (${suggestionReason("", "")}.)` : ""}`;
  const keys = `Item keys: ${itemKeys.slice(0, 10).join(", ") || "none"}.`;
  const only = unresolved[0] as UnresolvedPath;
  const message =
    unresolved.length === 1 && only.role === "filter"
      ? `Filter path "${first.label}" resolves on none of the ${items.length} items of ${where(pointer)}, so every item would be filtered out.${hint} ${keys} Use op "exists" with value false to select items without it.`
      : `${capitalize(quoted(unresolved))} ${unresolved.length === 1 ? "resolves" : "resolve"} on none of the ${items.length} ${noun} of ${where(pointer)}.${hint} ${noun === "rows" ? `With aggregate a sort path names a row label: ${itemKeys.join(", ")}.` : `${keys} Paths are item keys ("id") or pointers relative to each item ("/type").`}`;
  return new ContractError({ code: "FILTER_PATH_UNRESOLVED", message, details });
}

/** The text with its first letter upper-cased (messages that start with a `where(...)`). */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function compileFieldOrNull(field: string): CompiledPath | null {
  try {
    return compileField(field);
  } catch {
    return null;
  }
}

import { ContractError } from "@bounded-mcp/contract";
import { type CompiledPath, compileField, resolvesOnAny } from "./compiled-path.js";
import { isJsonObject } from "./json-values.js";

// The caller-correctable errors of fields and filter paths (CONTRACT-v3 §6 INVALID_FIELD_PATH,
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

/**
 * INVALID_FIELD_PATH with `suggestedField` when a literal field is a key of no item but its
 * pointer form `/field` resolves (never silently changing its meaning); null when none does.
 */
export function suggestedFieldError(
  fields: readonly CompiledPath[],
  items: readonly unknown[],
  pointer: string,
): ContractError | null {
  for (const field of fields) {
    if (!field.literal) continue;
    const asPointer = compileFieldOrNull(`/${field.label}`);
    if (asPointer !== null && resolvesOnAny(items, null, asPointer)) {
      return new ContractError({
        code: "INVALID_FIELD_PATH",
        message: `Field "${field.label}" is not a key of the items of ${where(pointer)}, but "/${field.label}" resolves: a field without a leading "/" is a literal key. Did you mean "/${field.label}"?`,
        details: { field: field.label, suggestedField: `/${field.label}` },
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
  if (fixedItemKeys === undefined) {
    const literal = unresolved.find((entry) => {
      if (!entry.path.literal) return false;
      const asPointer = compileFieldOrNull(`/${entry.path.label}`);
      return asPointer !== null && resolvesOnAny(items, null, asPointer);
    });
    if (literal !== undefined) details.suggestedPath = `/${literal.path.label}`;
  }
  const hint =
    details.suggestedPath === undefined ? "" : ` Did you mean "${String(details.suggestedPath)}"?`;
  const keys = `Item keys: ${itemKeys.slice(0, 10).join(", ") || "none"}.`;
  const only = unresolved[0] as UnresolvedPath;
  const message =
    unresolved.length === 1 && only.role === "filter"
      ? `Filter path "${first.label}" resolves on none of the ${items.length} items of ${where(pointer)}, so every item would be filtered out.${hint} ${keys} Use op "exists" with value false to select items without it.`
      : `${capitalize(quoted(unresolved))} ${unresolved.length === 1 ? "resolves" : "resolve"} on none of the ${items.length} ${noun} of ${where(pointer)}.${hint} ${noun === "rows" ? `With aggregate a sort path names a row label: ${itemKeys.join(", ")}.` : `${keys} Paths are item keys ("id") or pointers relative to each item ("/type").`}`;
  return new ContractError({ code: "FILTER_PATH_UNRESOLVED", message, details });
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function compileFieldOrNull(field: string): CompiledPath | null {
  try {
    return compileField(field);
  } catch {
    return null;
  }
}

import { ContractError } from "@bounded-mcp/contract";
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

/** FILTER_PATH_UNRESOLVED for a filter path that resolves on no item, with the item keys. */
export function unresolvedFilterPath(
  path: CompiledPath,
  items: readonly unknown[],
  pointer: string,
  fixedItemKeys?: string[],
): ContractError {
  const itemKeys = fixedItemKeys ?? sampleKeys(items);
  const details: Record<string, unknown> = { path: path.label, itemKeys };
  if (path.literal && fixedItemKeys === undefined) {
    const asPointer = compileFieldOrNull(`/${path.label}`);
    if (asPointer !== null && resolvesOnAny(items, null, asPointer)) {
      details.suggestedPath = `/${path.label}`;
    }
  }
  const hint =
    details.suggestedPath === undefined ? "" : ` Did you mean "${String(details.suggestedPath)}"?`;
  return new ContractError({
    code: "FILTER_PATH_UNRESOLVED",
    message: `Filter path "${path.label}" resolves on none of the ${items.length} items of ${where(pointer)}, so every item would be filtered out.${hint} Item keys: ${itemKeys.slice(0, 10).join(", ") || "none"}. Use op "exists" with value false to select items without it.`,
    details,
  });
}

function compileFieldOrNull(field: string): CompiledPath | null {
  try {
    return compileField(field);
  } catch {
    return null;
  }
}

import { isDeepStrictEqual } from "node:util";
import type { JsonSchema } from "./json-schema-validator.js";

const DEFINITION_KEYWORDS = ["$defs", "definitions"] as const;
/** Keywords whose values are data, not schemas: never searched for $ref or $defs. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Sets an own property even for `__proto__`, so a definition of that name stays data. */
function setOwn(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function escapeToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

function unescapeToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** One schema placed under `anyOf/<index>`, with where its definitions moved to. */
interface Placement {
  index: number;
  /** Old pointer of a definition inside its schema -> new root name. */
  moved: Map<string, string>;
  /** Original name -> root name of its shallowest definition (for misplaced references). */
  byName: Map<string, string>;
}

/** Picks a root $defs name for `name`: itself when free, else `name_2`, `name_3`, ... */
function freeName(name: string, taken: JsonObject): string {
  if (!Object.hasOwn(taken, name)) return name;
  let counter = 2;
  while (Object.hasOwn(taken, `${name}_${counter}`)) counter += 1;
  return `${name}_${counter}`;
}

/**
 * Pass 1: every definition of `schema`, wherever it sits, gets a root name. A node's own
 * definitions are named before its children's, so the original root's names win.
 */
function collectDefinitions(
  schema: unknown,
  pointer: string,
  root: JsonObject,
  placement: Placement,
  pending: { name: string; value: unknown }[],
): void {
  if (Array.isArray(schema)) {
    schema.forEach((item, index) => {
      collectDefinitions(item, `${pointer}/${index}`, root, placement, pending);
    });
    return;
  }
  if (!isObject(schema)) return;
  const children: [string, unknown][] = [];
  for (const keyword of DEFINITION_KEYWORDS) {
    const container = schema[keyword];
    if (!isObject(container)) continue;
    for (const [name, definition] of Object.entries(container)) {
      const rootName = freeName(name, root);
      const definitionPointer = `${pointer}/${keyword}/${escapeToken(name)}`;
      setOwn(root, rootName, true); // reserved; replaced by the rewritten definition in pass 2
      placement.moved.set(definitionPointer, rootName);
      if (!placement.byName.has(name)) placement.byName.set(name, rootName);
      pending.push({ name: rootName, value: definition });
      children.push([definitionPointer, definition]);
    }
  }
  for (const [key, value] of Object.entries(schema)) {
    const isContainer = (DEFINITION_KEYWORDS as readonly string[]).includes(key) && isObject(value);
    if (!isContainer && !DATA_KEYWORDS.has(key)) {
      children.push([`${pointer}/${escapeToken(key)}`, value]);
    }
  }
  for (const [childPointer, child] of children) {
    collectDefinitions(child, childPointer, root, placement, pending);
  }
}

function decodeFragment(reference: string): string | null {
  try {
    return decodeURIComponent(reference.slice(1));
  } catch {
    return null;
  }
}

/** The new `$ref` of a local reference: into the hoisted $defs, or under `anyOf/<index>`. */
function rewriteReference(reference: string, placement: Placement): string {
  if (!reference.startsWith("#")) return reference;
  const pointer = decodeFragment(reference);
  if (pointer === null || (pointer !== "" && !pointer.startsWith("/"))) return reference;
  let best: { old: string; rootName: string } | undefined;
  for (const [old, rootName] of placement.moved) {
    const matches = pointer === old || pointer.startsWith(`${old}/`);
    if (matches && (best === undefined || old.length > best.old.length)) best = { old, rootName };
  }
  if (best !== undefined) {
    return `#/$defs/${escapeToken(best.rootName)}${pointer.slice(best.old.length)}`;
  }
  // `#/$defs/Name` written for a definition that sits deeper (zod does this): the one named so.
  const misplaced = /^\/(?:\$defs|definitions)\/([^/]*)(.*)$/s.exec(pointer);
  const rootName = misplaced && placement.byName.get(unescapeToken(misplaced[1] ?? ""));
  if (misplaced && rootName) return `#/$defs/${escapeToken(rootName)}${misplaced[2] ?? ""}`;
  return `#/anyOf/${placement.index}${pointer}`;
}

/** Pass 2: a copy without definition containers, with every local `$ref` rewritten. */
function rewriteNode(node: unknown, placement: Placement, isRoot: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => rewriteNode(item, placement, false));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if ((DEFINITION_KEYWORDS as readonly string[]).includes(key) && isObject(value)) continue;
    // A root $id or $schema would make the placed schema its own resource and break its refs.
    if (isRoot && (key === "$id" || key === "$schema")) continue;
    if (key === "$ref" && typeof value === "string") {
      out[key] = rewriteReference(value, placement);
      continue;
    }
    setOwn(out, key, DATA_KEYWORDS.has(key) ? value : rewriteNode(value, placement, false));
  }
  return out;
}

/**
 * The branch of a rewritten outputSchema that admits what the adapter returns instead of a tool's
 * own value: the bounded envelope and the bounded error (contract SPEC.md §2) both have a boolean
 * `success` and `responseMeta.truncated: true`. It is deliberately loose and small (about 45
 * tokens per tool in tools/list, no date pattern, no definitions): it only has to let an SDK
 * Client accept every bounded result; the contract's zod schemas describe them exactly. Frozen:
 * shared by every rewrite.
 */
export const BOUNDED_RESULT_JSON_SCHEMA: Readonly<JsonSchema> = deepFreeze({
  type: "object",
  required: ["success", "responseMeta"],
  properties: {
    responseMeta: {
      type: "object",
      required: ["truncated"],
      properties: { truncated: { const: true } },
    },
  },
});

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * The outputSchema to advertise for a tool whose own outputSchema is `original`:
 * `{type: "object", anyOf: [original, BOUNDED_RESULT_JSON_SCHEMA], $defs}`. SDK Clients validate
 * structuredContent against it even for isError results (docs/sdk-notes.md 4), so it must admit
 * what the adapter may return instead of the tool's own value; the root must be
 * `type: "object"` (a bare anyOf breaks listTools), and every `$defs` or `definitions` of the
 * original, however deep, moves to the root, where Ajv resolves `#/$defs/...`
 * (docs/sdk-notes.md 5). A name already taken gets `_2`, `_3`, ... and every local `$ref` follows
 * its target, including references into the original's own body (now under `#/anyOf/0`). The
 * original's root `$id` and `$schema` are dropped. Remote references are left alone. The input
 * is not modified. Idempotent: a schema that is already such a rewrite (a bounded server behind a
 * relay) is returned as is.
 */
export function rewriteOutputSchema(original: JsonSchema): JsonSchema {
  if (isRewritten(original)) return original;
  return wrapOutputSchema(original);
}

function wrapOutputSchema(original: JsonSchema): JsonSchema {
  const definitions: JsonObject = {};
  const placement: Placement = { index: 0, moved: new Map(), byName: new Map() };
  const pending: { name: string; value: unknown }[] = [];
  collectDefinitions(original, "", definitions, placement, pending);
  for (const { name, value } of pending) {
    setOwn(definitions, name, rewriteNode(value, placement, false));
  }
  const own = rewriteNode(original, placement, true);
  const rewritten: JsonSchema = { type: "object", anyOf: [own, BOUNDED_RESULT_JSON_SCHEMA] };
  if (Object.keys(definitions).length > 0) rewritten["$defs"] = definitions;
  return rewritten;
}

const REWRITTEN_KEYS = new Set(["type", "anyOf", "$defs"]);

/**
 * Whether `schema` is already the output of rewriteOutputSchema (a bounded server relayed again,
 * or a policy applied twice): `{type: "object", anyOf: [original, bounded branch], $defs?}` with
 * the bounded branch exactly as placed. Wrapping it again would only nest the same alternatives
 * one level deeper.
 */
function isRewritten(schema: JsonSchema): boolean {
  if (schema["type"] !== "object" || !Object.keys(schema).every((key) => REWRITTEN_KEYS.has(key))) {
    return false;
  }
  const anyOf = schema["anyOf"];
  return (
    Array.isArray(anyOf) &&
    anyOf.length === 2 &&
    isDeepStrictEqual(anyOf[1], BOUNDED_RESULT_JSON_SCHEMA)
  );
}

/**
 * structuredContent derived by the adapter (from JSON text, or a value it computed) must be an
 * object: MCP and the SDK Client reject arrays and scalars there. Objects pass unchanged;
 * anything else is wrapped as `{value: ...}`.
 */
export function toStructuredContent(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : { value };
}

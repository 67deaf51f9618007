/** One thing a strict schema linter would warn about, at a JSON Pointer into the schema. */
export interface StrictSchemaProblem {
  pointer: string;
  problem: "type array" | "empty schema" | "boolean schema" | "no type";
}

type JsonObject = Record<string, unknown>;

/** Keywords whose value is one subschema. */
const SINGLE = [
  "items",
  "additionalItems",
  "additionalProperties",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
];
/** Keywords whose value is an array of subschemas. */
const LISTS = ["anyOf", "oneOf", "allOf", "prefixItems", "items"];
/** Keywords whose value maps names to subschemas. */
const MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
/** What gives a schema a type of its own, directly or through its alternatives. */
const TYPING = ["type", "anyOf", "oneOf", "allOf", "$ref", "const", "enum", "not"];

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function escapeToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * Walks every subschema of `schema` (schema positions only, never const/enum/default data) and
 * lists what strict MCP clients and linters reject: `type` as an array (`["string", "null"]`),
 * the empty schema `{}`, a boolean schema (`true`), and a schema that states no type at all
 * (only `description`, say). A test helper: its rules are the repository's own reading of
 * "strict", not a linter's exact list.
 */
export function findStrictSchemaProblems(schema: unknown, pointer = ""): StrictSchemaProblem[] {
  if (typeof schema === "boolean") return [{ pointer, problem: "boolean schema" }];
  if (!isObject(schema)) return [];
  const problems: StrictSchemaProblem[] = [];
  if (Object.keys(schema).length === 0) problems.push({ pointer, problem: "empty schema" });
  else if (Array.isArray(schema["type"])) problems.push({ pointer, problem: "type array" });
  else if (!TYPING.some((keyword) => Object.hasOwn(schema, keyword))) {
    problems.push({ pointer, problem: "no type" });
  }
  for (const keyword of SINGLE) {
    const child = schema[keyword];
    if (isObject(child) || typeof child === "boolean") {
      // additionalProperties: false is the strict form, not a boolean schema to warn about.
      if (child === false && keyword.startsWith("additional")) continue;
      problems.push(...findStrictSchemaProblems(child, `${pointer}/${keyword}`));
    }
  }
  for (const keyword of LISTS) {
    const list = schema[keyword];
    if (!Array.isArray(list)) continue;
    list.forEach((child, index) => {
      problems.push(...findStrictSchemaProblems(child, `${pointer}/${keyword}/${index}`));
    });
  }
  for (const keyword of MAPS) {
    const map = schema[keyword];
    if (!isObject(map)) continue;
    for (const [name, child] of Object.entries(map)) {
      problems.push(
        ...findStrictSchemaProblems(child, `${pointer}/${keyword}/${escapeToken(name)}`),
      );
    }
  }
  return problems;
}

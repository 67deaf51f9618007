import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BOUNDED_ENVELOPE_JSON_SCHEMA,
  BOUNDED_ERROR_JSON_SCHEMA,
  DESCRIPTOR_JSON_SCHEMA,
  type JsonSchemaObject,
  QUERY_REQUEST_KEYS,
  QUERY_TOOL_INPUT_SCHEMA,
  QUERY_TOOL_OUTPUT_SCHEMA,
} from "../src/index.js";

/**
 * Every generated JSON Schema is pinned by a golden copy in test/golden, so a schema change shows
 * up as a diff in review. After an intended change: UPDATE_GOLDEN=1 pnpm --filter
 * @bounded-mcp/contract test, then review and commit the golden files.
 */
const GOLDEN_DIR = join(import.meta.dirname, "golden");
const UPDATE = process.env["UPDATE_GOLDEN"] === "1";

const SCHEMAS: Record<string, JsonSchemaObject> = {
  "query-tool-input": QUERY_TOOL_INPUT_SCHEMA,
  "query-tool-output": QUERY_TOOL_OUTPUT_SCHEMA,
  "bounded-envelope": BOUNDED_ENVELOPE_JSON_SCHEMA,
  "bounded-error": BOUNDED_ERROR_JSON_SCHEMA,
  descriptor: DESCRIPTOR_JSON_SCHEMA,
};

/** Keywords whose meaning differs between draft-07 (the SDK's Ajv) and 2020-12 (MCP's default). */
const DIALECT_SPECIFIC_KEYWORDS = [
  "$schema",
  "definitions",
  "dependencies",
  "prefixItems",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
  "$anchor",
  "dependentSchemas",
  "dependentRequired",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
];

type Visit = (node: Record<string, unknown>, path: string) => void;

function walk(node: unknown, visit: Visit, path = "#"): void {
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) walk(item, visit, `${path}/${index}`);
    return;
  }
  if (typeof node !== "object" || node === null) return;
  const record = node as Record<string, unknown>;
  visit(record, path);
  for (const [key, value] of Object.entries(record)) walk(value, visit, `${path}/${key}`);
}

function problemsOf(schema: JsonSchemaObject): string[] {
  const problems: string[] = [];
  walk(schema, (node, path) => {
    for (const keyword of DIALECT_SPECIFIC_KEYWORDS) {
      if (keyword in node && !path.includes("/properties/")) problems.push(`${path}: ${keyword}`);
    }
    if ("$defs" in node && path !== "#") problems.push(`${path}: nested $defs`);
    if (Array.isArray(node["items"])) problems.push(`${path}: array-form items`);
    const ref = node["$ref"];
    if (typeof ref === "string") {
      const name = ref.slice("#/$defs/".length);
      const definitions = (schema["$defs"] ?? {}) as Record<string, unknown>;
      if (!ref.startsWith("#/$defs/") || !(name in definitions)) {
        problems.push(`${path}: unresolvable $ref ${ref}`);
      }
    }
  });
  return problems;
}

describe("generated JSON Schemas", () => {
  it.each(Object.entries(SCHEMAS))("%s matches its golden copy", (name, schema) => {
    const file = join(GOLDEN_DIR, `${name}.golden.json`);
    const text = `${JSON.stringify(schema, null, 2)}\n`;
    if (UPDATE) writeFileSync(file, text);
    expect(existsSync(file), `missing ${file}: run with UPDATE_GOLDEN=1`).toBe(true);
    expect(text).toBe(readFileSync(file, "utf8"));
  });

  it.each(Object.entries(SCHEMAS))(
    "%s has a top-level object type and keywords both draft-07 and 2020-12 read alike",
    (_name, schema) => {
      expect(schema.type).toBe("object");
      expect(problemsOf(schema)).toEqual([]);
    },
  );

  it("leaves the bounded and descriptor schemas free of references, so they embed anywhere", () => {
    for (const schema of [
      BOUNDED_ENVELOPE_JSON_SCHEMA,
      BOUNDED_ERROR_JSON_SCHEMA,
      DESCRIPTOR_JSON_SCHEMA,
    ]) {
      expect(JSON.stringify(schema)).not.toContain('"$ref"');
    }
  });
});

describe("QUERY_TOOL_INPUT_SCHEMA", () => {
  it("is strict: no other keys, artifactId required", () => {
    expect({
      additionalProperties: QUERY_TOOL_INPUT_SCHEMA["additionalProperties"],
      required: QUERY_TOOL_INPUT_SCHEMA.required,
      properties: Object.keys(QUERY_TOOL_INPUT_SCHEMA.properties ?? {}),
    }).toEqual({
      additionalProperties: false,
      required: ["artifactId"],
      properties: [...QUERY_REQUEST_KEYS],
    });
  });

  it("describes every argument to the model", () => {
    const undescribed = Object.entries(QUERY_TOOL_INPUT_SCHEMA.properties ?? {})
      .filter(
        ([, property]) => typeof (property as { description?: unknown }).description !== "string",
      )
      .map(([key]) => key);
    expect(undescribed).toEqual([]);
  });

  it("accepts any JSON value as a filter value without a recursive definition", () => {
    type Properties = { properties: Record<string, Record<string, unknown>> };
    const filters = QUERY_TOOL_INPUT_SCHEMA.properties?.["filters"] as {
      items: { anyOf: [Properties, { properties: { anyOf: { items: Properties } } }] };
    };
    const [plain, anyOf] = filters.items.anyOf;
    expect([
      Object.keys(plain.properties["value"] ?? {}),
      Object.keys(anyOf.properties.anyOf.items.properties["value"] ?? {}),
    ]).toEqual([["description"], ["description"]]);
    expect(QUERY_TOOL_INPUT_SCHEMA["$defs"]).toBeUndefined();
    expect(JSON.stringify(QUERY_TOOL_INPUT_SCHEMA)).not.toContain('"$ref"');
  });

  it("shows a filter as a plain filter or an anyOf of plain filters, one level deep", () => {
    const filters = QUERY_TOOL_INPUT_SCHEMA.properties?.["filters"] as {
      items: { anyOf: { required: string[] }[] };
    };
    expect(filters.items.anyOf.map((branch) => branch.required)).toEqual([["path"], ["anyOf"]]);
  });
});

describe("QUERY_TOOL_OUTPUT_SCHEMA", () => {
  it("admits the result and the error envelope under a top-level object (no bare anyOf)", () => {
    const branches = QUERY_TOOL_OUTPUT_SCHEMA["anyOf"] as Record<string, unknown>[];
    expect(QUERY_TOOL_OUTPUT_SCHEMA.type).toBe("object");
    expect(branches.map((branch) => (branch["required"] as string[]).join(","))).toEqual([
      "artifactId,responsePath,responseMeta",
      "artifactId,responsePath,response,responseMeta",
    ]);
  });
});

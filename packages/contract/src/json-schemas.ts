import { z } from "zod";
import { BoundedEnvelopeSchema, BoundedErrorSchema } from "./bounded.js";
import { DescriptorSchema } from "./descriptor.js";
import { QueryRequestSchema } from "./query-request.js";
import { QueryToolOutputSchema } from "./query-result.js";

/**
 * A JSON Schema whose root is an object schema, as MCP tools/list carries it (the same shape as
 * the SDK's `Tool["inputSchema"]`). Exported schemas are shared: copy before changing one.
 */
export interface JsonSchemaObject {
  type: "object";
  properties?: Record<string, object>;
  required?: string[];
  [key: string]: unknown;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Moves every nested `$defs` to the root, where `#/$defs/...` references resolve in Ajv. */
function hoistDefinitions(schema: JsonObject): JsonObject {
  const definitions: JsonObject = {};
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (key !== "$defs" || !isObject(value)) {
        out[key] = visit(value);
        continue;
      }
      for (const [name, definition] of Object.entries(value)) {
        if (name in definitions) throw new Error(`duplicate JSON Schema definition ${name}`);
        definitions[name] = visit(definition);
      }
    }
    return out;
  };
  const root = visit(schema) as JsonObject;
  return Object.keys(definitions).length > 0 ? { ...root, $defs: definitions } : root;
}

/**
 * The JSON Schema of a zod schema as an MCP client receives it: inline (no shared $defs unless
 * recursive), top-level `type: "object"`, every `$defs` at the root, and no `$schema` key. The
 * keywords used mean the same in draft-07 (the SDK Client's Ajv) and 2020-12 (MCP's default).
 */
function toClientJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchemaObject {
  const { $schema: _dialect, ...generated } = z.toJSONSchema(schema, {
    io,
    reused: "inline",
    unrepresentable: "throw",
  }) as JsonObject;
  return { type: "object", ...hoistDefinitions(generated) } as JsonSchemaObject;
}

const FILTER_VALUE_DESCRIPTION =
  "Any JSON value; an array for in and nin, a number or string for lt/lte/gt/gte, a boolean for exists; a number under measure length.";

/** The plain-filter schemas inside the input schema: `filters[]` and `filters[].anyOf[]`. */
function plainFilterSchemas(schema: JsonSchemaObject): JsonObject[] {
  const filters = schema.properties?.["filters"] as { items?: { anyOf?: JsonObject[] } };
  const [leaf, anyOf] = filters.items?.anyOf ?? [];
  const inner = (anyOf?.["properties"] as JsonObject | undefined)?.["anyOf"] as
    | { items?: JsonObject }
    | undefined;
  if (leaf === undefined || inner?.items === undefined) {
    throw new Error("the filter schema is not {anyOf: [plain filter, anyOf filter]}");
  }
  return [leaf, inner.items];
}

/**
 * The input schema with the recursive JSON-value definition of every filter `value` reduced to a
 * description (no `$ref`, no `$defs`).
 */
function createQueryToolInputSchema(): JsonSchemaObject {
  const schema = toClientJsonSchema(QueryRequestSchema, "input");
  for (const filter of plainFilterSchemas(schema)) {
    const properties = filter["properties"] as JsonObject | undefined;
    if (properties === undefined) throw new Error("the filter schema has no properties");
    properties["value"] = { description: FILTER_VALUE_DESCRIPTION };
  }
  delete schema["$defs"];
  if (JSON.stringify(schema).includes('"$ref"')) {
    throw new Error("the query tool input schema holds a $ref");
  }
  return schema;
}

/**
 * The query tool's inputSchema as an MCP client sees it in tools/list: strict
 * (`additionalProperties: false`, `required: ["artifactId"]`), with a description per argument.
 * Conflicts and filter value rules are left out (a client checking arguments itself would hide
 * the corrective error); `parseQueryRequest` enforces those.
 */
export const QUERY_TOOL_INPUT_SCHEMA: JsonSchemaObject = createQueryToolInputSchema();

/**
 * The query tool's outputSchema: `{type: "object", anyOf: [result, error result]}`. It admits the
 * error envelope, because the SDK Client validates structuredContent even when isError is true.
 */
export const QUERY_TOOL_OUTPUT_SCHEMA: JsonSchemaObject = toClientJsonSchema(
  QueryToolOutputSchema,
  "output",
);

/** The bounded envelope of an oversized result (§2), for rewriting an upstream outputSchema. */
export const BOUNDED_ENVELOPE_JSON_SCHEMA: JsonSchemaObject = toClientJsonSchema(
  BoundedEnvelopeSchema,
  "output",
);

/** The bounded error (§2), for rewriting an upstream outputSchema. */
export const BOUNDED_ERROR_JSON_SCHEMA: JsonSchemaObject = toClientJsonSchema(
  BoundedErrorSchema,
  "output",
);

/** The artifact descriptor resource (§8). */
export const DESCRIPTOR_JSON_SCHEMA: JsonSchemaObject = toClientJsonSchema(
  DescriptorSchema,
  "output",
);

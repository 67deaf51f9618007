import { FILTER_OPS, METRIC_OPS, SORT_ORDERS } from "@bounded-mcp/contract";
import type { JsonSchema } from "./json-schema-validator.js";

const STRING = { type: "string" } as const;
const BOOLEAN = { type: "boolean" } as const;
const MEASURE = { type: "string", enum: ["length"] } as const;
const SCALAR_TYPES = ["string", "number", "boolean", "null"].map((type) => ({ type }));

/**
 * Any JSON value, written without type arrays or empty schemas: array items are scalars here
 * (the contract takes any JSON value; `parseQueryRequest` checks it).
 */
const JSON_VALUE = {
  anyOf: [...SCALAR_TYPES, { type: "array", items: { anyOf: SCALAR_TYPES } }, { type: "object" }],
};

const FILTER = {
  type: "object",
  properties: {
    path: STRING,
    op: { type: "string", enum: [...FILTER_OPS] },
    value: JSON_VALUE,
    measure: MEASURE,
    anyOf: {
      type: "array",
      description: "2-5 filters {path, op, value}; holds when any holds",
      items: { type: "object" },
    },
  },
};

const SORT_KEY = {
  type: "object",
  required: ["path"],
  properties: { path: STRING, order: { type: "string", enum: [...SORT_ORDERS] }, measure: MEASURE },
};

const AGGREGATE = {
  type: "object",
  properties: {
    groupBy: { anyOf: [STRING, { type: "array", items: STRING }] },
    unwind: BOOLEAN,
    metrics: {
      type: "array",
      items: {
        type: "object",
        required: ["op"],
        properties: {
          op: { type: "string", enum: [...METRIC_OPS] },
          path: STRING,
          measure: MEASURE,
        },
      },
    },
  },
};

/**
 * The query tool's inputSchema as tools/list advertises it: every argument of the contract's
 * request (SPEC.md §3, §9) with its type and a few words, strict at the root
 * (`additionalProperties: false`, `required: ["artifactId"]`), in about a third of the tokens of
 * the contract's generated schema. It is looser than the contract on purpose: limits, conflicts
 * and which value fits which op are left to `parseQueryRequest`, whose error says how to correct
 * the call (a client that checked them itself would hide that). No type arrays and no empty
 * schemas, so strict schema linters accept it.
 */
export const QUERY_TOOL_COMPACT_INPUT_SCHEMA: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["artifactId"],
  properties: {
    artifactId: { type: "string", description: "responseMeta.artifact.id" },
    responsePath: {
      type: "string",
      description: 'RFC 6901 pointer; omitted: responseRoot, "": everything',
    },
    jsonPath: { type: "string", description: "JSONPath, no filters [?...]; rows {pointer, value}" },
    describe: { type: "boolean", description: "the shape, not values" },
    objectMode: { type: "string", enum: ["entries"], description: "a keyed object as rows" },
    fields: { type: "array", items: STRING, description: 'keys or item pointers ("/a/b")' },
    filters: { type: "array", items: FILTER, description: "ANDed" },
    textSearch: {
      type: "object",
      required: ["query"],
      properties: { query: STRING, caseSensitive: BOOLEAN },
    },
    sort: { type: "array", items: SORT_KEY },
    aggregate: AGGREGATE,
    pageSize: { type: "integer", minimum: 1, maximum: 100 },
    cursor: { type: "string", description: "responseMeta.nextCursor; other arguments unchanged" },
  },
};

/**
 * The query tool's outputSchema as tools/list advertises it: just enough for an SDK Client to
 * accept every result and error result (both carry `responseMeta`), and a line on where the
 * answer is, and where a number is exact only in the text (responseMeta.inexactNumbers, SPEC.md
 * §10). The exact shapes are the contract's zod schemas (SPEC.md §5), which the handler's results
 * satisfy.
 */
export const QUERY_TOOL_COMPACT_OUTPUT_SCHEMA: JsonSchema = {
  type: "object",
  description: "response: the page or {error}; shape: describe's answer",
  required: ["responseMeta"],
  properties: {
    responseMeta: {
      type: "object",
      description:
        "nextCursor, totalCount, warning; inexactNumbers: numbers to read from the text (exact there)",
    },
  },
};

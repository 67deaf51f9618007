import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  AGGREGATE_KEYS,
  FILTER_KEYS,
  METRIC_KEYS,
  parseQueryRequest,
  QUERY_REQUEST_KEYS,
  SORT_KEYS,
  TEXT_SEARCH_KEYS,
} from "@bounded-mcp/contract";
import { describe, expect, it } from "vitest";
import { findStrictSchemaProblems } from "../testing/strict-schema-walker.js";
import { createJsonSchemaChecker } from "./json-schema-validator.js";
import {
  QUERY_TOOL_COMPACT_INPUT_SCHEMA,
  QUERY_TOOL_COMPACT_OUTPUT_SCHEMA,
} from "./query-tool-schemas.js";
import { BOUNDED_RESULT_JSON_SCHEMA, rewriteOutputSchema } from "./rewrite-output-schema.js";

const CORPUS = fileURLToPath(new URL("../../../contract/test/corpus/", import.meta.url));

/** The contract's golden cases of one schema: `[file name, input]`. */
function corpus(schema: string): [string, unknown][] {
  return readdirSync(`${CORPUS}${schema}`)
    .filter((name) => name.endsWith(".json"))
    .map((name) => [name, JSON.parse(readFileSync(`${CORPUS}${schema}/${name}`, "utf8")).input]);
}

const valid = (schema: string) => corpus(schema).filter(([name]) => name.startsWith("valid-"));
const checker = createJsonSchemaChecker();

describe("the compact schemas the adapter advertises", () => {
  it("find no type arrays, empty schemas, boolean schemas or untyped schemas", () => {
    const rewritten = rewriteOutputSchema({
      type: "object",
      properties: { a: { type: "string" } },
    });
    for (const schema of [
      QUERY_TOOL_COMPACT_INPUT_SCHEMA,
      QUERY_TOOL_COMPACT_OUTPUT_SCHEMA,
      BOUNDED_RESULT_JSON_SCHEMA,
      rewritten,
    ]) {
      expect(findStrictSchemaProblems(schema)).toEqual([]);
    }
  });

  it("the walker finds each problem it looks for, at its pointer", () => {
    const schema = {
      type: "object",
      properties: {
        "a/b": { type: ["string", "null"] },
        any: {},
        loose: true,
        said: { description: "no type" },
        list: { type: "array", items: [{}, { type: "string" }] },
      },
      additionalProperties: false,
    };
    expect(findStrictSchemaProblems(schema)).toEqual([
      { pointer: "/properties/a~1b", problem: "type array" },
      { pointer: "/properties/any", problem: "empty schema" },
      { pointer: "/properties/loose", problem: "boolean schema" },
      { pointer: "/properties/said", problem: "no type" },
      { pointer: "/properties/list/items/0", problem: "empty schema" },
    ]);
  });

  it("name every argument of the contract's query request, and no other, at every level", () => {
    const keysAt = (...path: string[]) => {
      let node = QUERY_TOOL_COMPACT_INPUT_SCHEMA as Record<string, unknown>;
      for (const step of path) node = node[step] as Record<string, unknown>;
      return Object.keys(node["properties"] as object).sort();
    };
    expect(keysAt()).toEqual([...QUERY_REQUEST_KEYS].sort());
    expect(keysAt("properties", "filters", "items")).toEqual([...FILTER_KEYS, "anyOf"].sort());
    expect(keysAt("properties", "textSearch")).toEqual([...TEXT_SEARCH_KEYS].sort());
    expect(keysAt("properties", "sort", "items")).toEqual([...SORT_KEYS].sort());
    expect(keysAt("properties", "aggregate")).toEqual([...AGGREGATE_KEYS].sort());
    expect(keysAt("properties", "aggregate", "properties", "metrics", "items")).toEqual(
      [...METRIC_KEYS].sort(),
    );
  });

  it("admit every query request the contract accepts in its golden corpus", () => {
    const accepted = corpus("QueryRequest").filter(([, input]) => parseQueryRequest(input).success);
    expect(accepted.length).toBeGreaterThan(10);
    for (const [name, input] of accepted) {
      expect({ name, ...checker.check(QUERY_TOOL_COMPACT_INPUT_SCHEMA, input) }).toEqual({
        name,
        valid: true,
      });
    }
  });

  it("admit every valid query result and error result of the corpus as output", () => {
    const outputs = [...valid("QueryResult"), ...valid("QueryErrorResult")];
    expect(outputs.length).toBeGreaterThan(5);
    for (const [name, output] of outputs) {
      expect({ name, ...checker.check(QUERY_TOOL_COMPACT_OUTPUT_SCHEMA, output) }).toEqual({
        name,
        valid: true,
      });
    }
  });

  it("admit every valid bounded envelope and bounded error of the corpus in a rewritten schema", () => {
    const rewritten = rewriteOutputSchema({
      type: "object",
      properties: { total: { type: "integer" } },
      required: ["total"],
      additionalProperties: false,
    });
    const bounded = [...valid("BoundedEnvelope"), ...valid("BoundedError")];
    expect(bounded).toHaveLength(6);
    for (const [name, output] of bounded) {
      expect({ name, ...checker.check(rewritten, output) }).toEqual({ name, valid: true });
    }
    expect(checker.check(rewritten, { total: "many" }).valid).toBe(false);
  });
});

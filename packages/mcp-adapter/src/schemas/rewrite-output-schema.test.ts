import { describe, expect, it } from "vitest";
import {
  createJsonSchemaChecker,
  MAX_COMPILED_SCHEMAS,
  parseViolations,
} from "./json-schema-validator.js";
import {
  BOUNDED_RESULT_JSON_SCHEMA,
  rewriteOutputSchema,
  toStructuredContent,
} from "./rewrite-output-schema.js";
import { BOUNDED_ENVELOPE, BOUNDED_ERROR } from "./test-support/bounded-fixtures.js";

describe("rewriteOutputSchema", () => {
  it("wraps the original and one compact branch for the bounded envelope and error in a root object anyOf", () => {
    const original = {
      type: "object",
      properties: { total: { type: "integer" } },
      required: ["total"],
    };
    expect(rewriteOutputSchema(original)).toMatchInlineSnapshot(`
      {
        "anyOf": [
          {
            "properties": {
              "total": {
                "type": "integer",
              },
            },
            "required": [
              "total",
            ],
            "type": "object",
          },
          {
            "properties": {
              "responseMeta": {
                "properties": {
                  "truncated": {
                    "const": true,
                  },
                },
                "required": [
                  "truncated",
                ],
                "type": "object",
              },
            },
            "required": [
              "success",
              "responseMeta",
            ],
            "type": "object",
          },
        ],
        "type": "object",
      }
    `);
  });

  it("hoists nested $defs and definitions to the root, renaming a taken name and following every $ref", () => {
    const original = {
      $schema: "http://json-schema.org/draft-07/schema#",
      $id: "urn:example:nodes",
      type: "object",
      properties: {
        nodes: { type: "array", items: { $ref: "#/$defs/Node" } },
        first: { $ref: "#/properties/nodes/items" },
        owner: {
          $defs: { Node: { type: "string" } },
          type: "object",
          properties: { name: { $ref: "#/properties/owner/$defs/Node" } },
        },
        legacy: { $ref: "#/definitions/Legacy/properties/code" },
        self: { $ref: "#" },
        example: { const: { $ref: "#/$defs/Node" } },
      },
      $defs: { Node: { type: "object", properties: { child: { $ref: "#/$defs/Node" } } } },
      definitions: { Legacy: { type: "object", properties: { code: { type: "number" } } } },
    };
    const copy = structuredClone(original);
    const rewritten = rewriteOutputSchema(original);
    expect(original).toEqual(copy);
    expect(rewritten).toEqual({
      type: "object",
      anyOf: [
        {
          type: "object",
          properties: {
            nodes: { type: "array", items: { $ref: "#/$defs/Node" } },
            first: { $ref: "#/anyOf/0/properties/nodes/items" },
            owner: {
              type: "object",
              properties: { name: { $ref: "#/$defs/Node_2" } },
            },
            legacy: { $ref: "#/$defs/Legacy/properties/code" },
            self: { $ref: "#/anyOf/0" },
            example: { const: { $ref: "#/$defs/Node" } },
          },
        },
        BOUNDED_RESULT_JSON_SCHEMA,
      ],
      $defs: {
        Node_2: { type: "string" },
        Node: { type: "object", properties: { child: { $ref: "#/$defs/Node" } } },
        Legacy: { type: "object", properties: { code: { type: "number" } } },
      },
    });
  });

  it("produces a schema the SDK's Ajv compiles, admitting the original's values and both bounded shapes", () => {
    const original = {
      type: "object",
      properties: {
        nodes: { type: "array", items: { $ref: "#/$defs/Node" } },
        owner: {
          type: "object",
          $defs: { Name: { type: "string", minLength: 1 } },
          properties: { name: { $ref: "#/$defs/Name" } },
        },
      },
      required: ["nodes"],
      additionalProperties: false,
      $defs: { Node: { type: "object", required: ["id"], properties: { id: { type: "string" } } } },
    };
    const checker = createJsonSchemaChecker();
    const rewritten = rewriteOutputSchema(original);
    const own = { nodes: [{ id: "a" }], owner: { name: "n8n" } };
    expect(checker.check(rewritten, own)).toEqual({ valid: true });
    expect(checker.check(rewritten, BOUNDED_ENVELOPE)).toEqual({ valid: true });
    expect(checker.check(rewritten, BOUNDED_ERROR)).toEqual({ valid: true });
    expect(checker.check(rewritten, { nodes: [{ id: 1 }] }).valid).toBe(false);
    expect(() => checker.check(original, own)).toThrow(/can't resolve reference #\/\$defs\/Name/);
  });

  it("leaves an already rewritten schema as it is, also after a JSON round trip (a bounded server relayed again)", () => {
    const original = {
      type: "object",
      properties: { nodes: { type: "array", items: { $ref: "#/$defs/Node" } } },
      $defs: { Node: { type: "object", properties: { id: { type: "string" } } } },
    };
    const once = rewriteOutputSchema(original);
    const relayed = JSON.parse(JSON.stringify(once)) as Record<string, unknown>;
    expect(rewriteOutputSchema(once)).toBe(once);
    expect(rewriteOutputSchema(relayed)).toEqual(once);
    expect(createJsonSchemaChecker().check(rewriteOutputSchema(relayed), BOUNDED_ERROR)).toEqual({
      valid: true,
    });
  });

  it("still wraps a schema that only resembles a rewrite", () => {
    const lookalike = {
      type: "object",
      anyOf: [{ type: "object" }, { ...BOUNDED_RESULT_JSON_SCHEMA, required: ["success"] }],
    };
    expect(rewriteOutputSchema(lookalike)).toEqual({
      type: "object",
      anyOf: [lookalike, BOUNDED_RESULT_JSON_SCHEMA],
    });
    const extraKeyword = { ...rewriteOutputSchema({ type: "object" }), description: "mine" };
    expect((rewriteOutputSchema(extraKeyword)["anyOf"] as unknown[])[0]).toEqual(extraKeyword);
  });

  it("keeps a definition named __proto__ as an own key", () => {
    const rewritten = rewriteOutputSchema({
      type: "object",
      properties: { a: { $ref: "#/$defs/__proto__" } },
      $defs: JSON.parse('{"__proto__": {"type": "string"}}'),
    });
    const definitions = rewritten["$defs"] as Record<string, unknown>;
    expect(Object.keys(definitions)).toEqual(["__proto__"]);
    expect(createJsonSchemaChecker().check(rewritten, { a: 1 }).valid).toBe(false);
  });
});

describe("toStructuredContent", () => {
  it("passes objects and wraps arrays, scalars and null under value", () => {
    const object = { a: 1 };
    expect(toStructuredContent(object)).toBe(object);
    expect(toStructuredContent([1, 2])).toEqual({ value: [1, 2] });
    expect(toStructuredContent("text")).toEqual({ value: "text" });
    expect(toStructuredContent(3)).toEqual({ value: 3 });
    expect(toStructuredContent(null)).toEqual({ value: null });
  });
});

describe("createJsonSchemaChecker", () => {
  it("names the failing path of a missing key, a wrong type and an extra key", () => {
    const schema = {
      type: "object",
      properties: { "a/b": { type: "string" }, list: { type: "array", items: { type: "number" } } },
      required: ["a/b"],
      additionalProperties: false,
    };
    expect(createJsonSchemaChecker().check(schema, { list: [1, "x"], extra: 1 })).toEqual({
      valid: false,
      violations: [
        { path: "/a~1b", message: "must have required property 'a/b'" },
        { path: "", message: "must NOT have additional properties" },
        { path: "/list/1", message: "must be number" },
      ],
    });
  });

  it("validates formats as the SDK Client does", () => {
    const schema = { type: "object", properties: { at: { type: "string", format: "date-time" } } };
    const checker = createJsonSchemaChecker();
    expect(checker.check(schema, { at: "2026-11-29T19:00:00Z" })).toEqual({ valid: true });
    expect(checker.check(schema, { at: "yesterday" })).toEqual({
      valid: false,
      violations: [{ path: "/at", message: 'must match format "date-time"' }],
    });
  });

  it("keeps working past its compiled-schema limit", () => {
    const checker = createJsonSchemaChecker();
    for (let index = 0; index <= MAX_COMPILED_SCHEMAS + 5; index += 1) {
      const schema = { type: "object", properties: { n: { const: index } } };
      expect(checker.check(schema, { n: index })).toEqual({ valid: true });
    }
    expect(checker.check({ type: "object", properties: { n: { const: 0 } } }, { n: 1 }).valid).toBe(
      false,
    );
  });
});

describe("parseViolations", () => {
  it("reads paths with spaces and keeps an unreadable entry whole", () => {
    expect(
      parseViolations("data/my key/0 must be string, data must have required property 'x y'"),
    ).toEqual([
      { path: "/my key/0", message: "must be string" },
      { path: "/x y", message: "must have required property 'x y'" },
    ]);
    expect(parseViolations("value is not valid")).toEqual([
      { path: null, message: "value is not valid" },
    ]);
  });
});

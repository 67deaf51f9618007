import { describe, expect, it } from "vitest";
import { createRecordingLogger } from "../testing/recording-logger.js";
import { createOutputSchemaPolicy } from "./output-schema-policy.js";
import { rewriteOutputSchema } from "./rewrite-output-schema.js";

const SCHEMA = { type: "object" as const, properties: { total: { type: "integer" } } };
const WITH_SCHEMA = { name: "search", outputSchema: SCHEMA };

describe("createOutputSchemaPolicy decisions", () => {
  it("includes the outputSchema and structuredContent by default", () => {
    expect(createOutputSchemaPolicy().decide(WITH_SCHEMA)).toEqual({
      includeOutputSchema: true,
      includeStructuredContent: true,
    });
  });

  it("lets a per-tool option override the default", () => {
    const policy = createOutputSchemaPolicy({
      includeStructuredContent: false,
      includeOutputSchema: false,
      tools: { search: { includeOutputSchema: true, includeStructuredContent: true } },
    });
    expect(policy.decide(WITH_SCHEMA)).toEqual({
      includeOutputSchema: true,
      includeStructuredContent: true,
    });
    expect(policy.decide({ name: "other", outputSchema: SCHEMA })).toEqual({
      includeOutputSchema: false,
      includeStructuredContent: false,
    });
  });

  it("keeps structuredContent when the outputSchema is advertised, warning once naming the tool", () => {
    const logger = createRecordingLogger();
    const policy = createOutputSchemaPolicy({ includeStructuredContent: false, logger });
    for (let call = 0; call < 3; call += 1) {
      expect(policy.decide(WITH_SCHEMA)).toEqual({
        includeOutputSchema: true,
        includeStructuredContent: true,
      });
    }
    expect(policy.decide({ name: "plain" })).toEqual({
      includeOutputSchema: true,
      includeStructuredContent: false,
    });
    expect(logger.records).toEqual([
      {
        level: "warn",
        message:
          'tool "search": includeOutputSchema implies includeStructuredContent, so its structuredContent is kept',
        fields: { tool: "search" },
      },
    ]);
  });
});

describe("createOutputSchemaPolicy.advertise", () => {
  it("rewrites an outputSchema once, even when it arrives as a fresh object, and leaves other fields alone", () => {
    const policy = createOutputSchemaPolicy();
    const tool = {
      ...WITH_SCHEMA,
      description: "Search",
      inputSchema: { type: "object" as const },
    };
    const first = policy.advertise(tool);
    expect(first).toEqual({ ...tool, outputSchema: rewriteOutputSchema(SCHEMA) });
    expect(policy.advertise(tool).outputSchema).toBe(first.outputSchema);
    expect(policy.advertise(structuredClone(tool)).outputSchema).toBe(first.outputSchema);
    expect(tool.outputSchema).toBe(SCHEMA);
  });

  it("returns a tool without an outputSchema unchanged", () => {
    const tool = { name: "plain", inputSchema: { type: "object" as const } };
    expect(createOutputSchemaPolicy().advertise(tool)).toBe(tool);
  });
});

describe("createOutputSchemaPolicy.enforce without an advertised schema", () => {
  it("passes results through, or strips structuredContent when it is turned off", () => {
    const result = { content: [], structuredContent: { anything: [1] } };
    expect(createOutputSchemaPolicy().enforce({ name: "plain" }, result)).toBe(result);
    expect(
      createOutputSchemaPolicy({ includeStructuredContent: false }).enforce(
        { name: "plain" },
        result,
      ),
    ).toEqual({ content: [] });
  });

  it("wraps an array or scalar structuredContent under value, as MCP requires an object", () => {
    const policy = createOutputSchemaPolicy();
    const array = { content: [], structuredContent: [1, 2] as unknown as Record<string, unknown> };
    expect(policy.enforce({ name: "plain" }, array)).toEqual({
      content: [],
      structuredContent: { value: [1, 2] },
    });
  });
});

describe("createOutputSchemaPolicy.enforce with a schema Ajv cannot compile", () => {
  it("passes the result on and warns once naming the tool", () => {
    const logger = createRecordingLogger();
    const policy = createOutputSchemaPolicy({ logger });
    const tool = {
      name: "remote",
      outputSchema: {
        type: "object" as const,
        properties: { a: { $ref: "https://example.com/a.json" } },
      },
    };
    const result = { content: [], structuredContent: { a: 1 } };
    expect(policy.enforce(tool, result)).toBe(result);
    expect(policy.enforce(tool, result)).toBe(result);
    expect(logger.records).toEqual([
      {
        level: "warn",
        message: 'tool "remote": its outputSchema cannot be compiled, results are not enforced',
        fields: {
          tool: "remote",
          error: "can't resolve reference https://example.com/a.json from id #",
        },
      },
    ]);
  });
});

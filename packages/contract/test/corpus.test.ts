import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  ArtifactRefSchema,
  BoundedEnvelopeSchema,
  BoundedErrorSchema,
  createBoundedError,
  createErrorResult,
  DescriptorSchema,
  ERROR_CODE_LIST,
  type ErrorCode,
  parseQueryRequest,
  type QueryErrorResult,
  QueryErrorResultSchema,
  QueryResultSchema,
  QueryToolOutputSchema,
} from "../src/index.js";

/**
 * The golden corpus: test/corpus/<SchemaName>/<case>.json, each `{description, input, expected}`.
 * QueryRequest cases go through parseQueryRequest and expect `{ok: true}` or
 * `{ok: false, error: {code, details}}`; every other folder is a wire shape parsed by its zod
 * schema and expects `{ok: true}` or `{ok: false, issuePath}` (the dotted path of the first issue).
 */
const CORPUS_DIR = join(import.meta.dirname, "corpus");

const RESPONSE_SCHEMAS: Record<string, z.ZodType> = {
  ArtifactRef: ArtifactRefSchema,
  BoundedEnvelope: BoundedEnvelopeSchema,
  BoundedError: BoundedErrorSchema,
  Descriptor: DescriptorSchema,
  QueryErrorResult: QueryErrorResultSchema,
  QueryResult: QueryResultSchema,
  QueryToolOutput: QueryToolOutputSchema,
};

interface CorpusCase {
  schema: string;
  name: string;
  description: string;
  input: unknown;
  expected:
    | { ok: true }
    | {
        ok: false;
        error?: { code: ErrorCode; details: Record<string, unknown> };
        issuePath?: string;
      };
}

function readCorpus(): CorpusCase[] {
  return readdirSync(CORPUS_DIR).flatMap((schema) =>
    readdirSync(join(CORPUS_DIR, schema))
      .filter((file) => file.endsWith(".json"))
      .sort()
      .map((file) => ({
        schema,
        name: file.slice(0, -".json".length),
        ...JSON.parse(readFileSync(join(CORPUS_DIR, schema, file), "utf8")),
      })),
  );
}

const corpus = readCorpus();
const casesOf = (schema: string) => corpus.filter((entry) => entry.schema === schema);
const dotted = (path: readonly PropertyKey[]) => path.map(String).join(".");

describe("the golden corpus", () => {
  it("has a folder per wire shape and nothing else", () => {
    expect([...new Set(corpus.map((entry) => entry.schema))].sort()).toEqual(
      ["QueryRequest", ...Object.keys(RESPONSE_SCHEMAS)].sort(),
    );
  });

  it("holds valid and invalid cases of every wire shape", () => {
    for (const schema of new Set(corpus.map((entry) => entry.schema))) {
      const outcomes = new Set(casesOf(schema).map((entry) => entry.expected.ok));
      expect({ schema, outcomes: [...outcomes].sort() }).toEqual({
        schema,
        outcomes: [false, true],
      });
    }
  });

  it("names case files in kebab-case, valid ones starting with valid-", () => {
    for (const entry of corpus) {
      expect(entry.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect({ name: entry.name, valid: entry.name.startsWith("valid-") }).toEqual({
        name: entry.name,
        valid: entry.expected.ok,
      });
    }
  });
});

describe("QueryRequest corpus through parseQueryRequest", () => {
  it.each(casesOf("QueryRequest").map((entry) => [entry.name, entry] as const))(
    "%s",
    (_name, entry) => {
      const result = parseQueryRequest(entry.input);
      if (entry.expected.ok) {
        expect(result).toEqual({ success: true, data: entry.input });
        return;
      }
      expect(result.success).toBe(false);
      if (result.success) return;
      expect({ code: result.error.code, details: result.error.details }).toEqual(
        entry.expected.error,
      );
      expect(result.error.message.length).toBeGreaterThan(0);
    },
  );

  it("rejects every snake_case alias of a known key with its camelCase suggestedKey", () => {
    const aliases = casesOf("QueryRequest")
      .filter((entry) => entry.name.startsWith("alias-"))
      .map((entry) => entry.expected.ok === false && entry.expected.error?.details["suggestedKey"]);
    expect(aliases).toEqual(
      expect.arrayContaining([
        "artifactId",
        "responsePath",
        "pageSize",
        "objectMode",
        "textSearch",
        "jsonPath",
        "caseSensitive",
      ]),
    );
  });
});

describe.each(Object.entries(RESPONSE_SCHEMAS))("%s corpus", (schemaName, schema) => {
  it.each(casesOf(schemaName).map((entry) => [entry.name, entry] as const))(
    "%s",
    (_name, entry) => {
      const result = schema.safeParse(entry.input);
      if (entry.expected.ok) {
        expect(result.error?.issues).toBeUndefined();
        return;
      }
      expect(dotted(result.error?.issues[0]?.path ?? ["<parsed>"])).toBe(entry.expected.issuePath);
    },
  );
});

describe("error results in the corpus", () => {
  const validErrorResults = casesOf("QueryErrorResult")
    .filter((entry) => entry.expected.ok)
    .map((entry) => entry.input as QueryErrorResult);
  const validBoundedErrors = casesOf("BoundedError")
    .filter((entry) => entry.expected.ok)
    .map((entry) => BoundedErrorSchema.parse(entry.input));

  it("cover every error code of §6", () => {
    const seen = new Set([
      ...validErrorResults.map((result) => result.response.error.code),
      ...validBoundedErrors.map((result) => result.error.code),
    ]);
    expect([...seen].sort()).toEqual([...ERROR_CODE_LIST].sort());
  });

  it("cover every cursor and handle reason", () => {
    const reasons = (code: ErrorCode) =>
      validErrorResults
        .filter((result) => result.response.error.code === code)
        .map((result) => result.response.error.details?.["reason"])
        .sort();
    expect(reasons("INVALID_RESPONSE_CURSOR")).toEqual(
      ["malformed", "mismatch", "past_end", "unknown_key"].sort(),
    );
    expect(reasons("INVALID_ARTIFACT_HANDLE")).toEqual(["expired", "invalid_id", "unknown"]);
  });

  it("are exactly what createErrorResult builds from their own fields", () => {
    for (const result of validErrorResults) {
      const { code, message, details } = result.response.error;
      const rebuilt = createErrorResult({
        code,
        message,
        ...(details === undefined ? {} : { details }),
        artifactId: result.artifactId,
        responsePath: result.responsePath,
        warning: result.responseMeta.warning,
      });
      expect(rebuilt).toEqual(result);
      expect(result.responseMeta.serializedBytes).toBe(
        new TextEncoder().encode(JSON.stringify(result)).length,
      );
    }
  });

  it("are exactly what createBoundedError builds from their own fields", () => {
    for (const result of validBoundedErrors) {
      const rebuilt = createBoundedError({
        code: result.error.code,
        message: result.error.message,
        details: result.error.details ?? {},
        data: result.data,
        serializedBytes: result.responseMeta.serializedBytes,
        inexactNumbers: result.responseMeta.inexactNumbers,
      });
      expect(rebuilt).toEqual(result);
    }
  });
});

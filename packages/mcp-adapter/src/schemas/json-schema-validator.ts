import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from "@modelcontextprotocol/sdk/validation/types.js";

/** A JSON Schema as tools/list carries it. */
export type JsonSchema = Record<string, unknown>;

/** One place where a value breaks its schema. */
export interface SchemaViolation {
  /**
   * RFC 6901 pointer of the failing value ("" is the whole value; a missing required key is
   * included), or null when the validator's message could not be read.
   */
  path: string | null;
  /** The validator's message, e.g. `must be string`. */
  message: string;
}

/** The verdict of one validation. */
export type SchemaVerdict = { valid: true } | { valid: false; violations: SchemaViolation[] };

/** Validates values against JSON Schemas, compiling each schema once. */
export interface JsonSchemaChecker {
  check(schema: JsonSchema, value: unknown): SchemaVerdict;
}

/** Options of createJsonSchemaChecker. */
export interface JsonSchemaCheckerOptions {
  /**
   * Creates the validator provider (the SDK's `jsonSchemaValidator` interface). Default: the
   * SDK's `AjvJsonSchemaValidator`, which is what an SDK Client uses unless configured
   * otherwise; pass the same provider as the clients you serve if they use another one.
   */
  createProvider?: () => jsonSchemaValidator;
}

/** How many compiled schemas a checker keeps; beyond, it starts over with a fresh provider. */
export const MAX_COMPILED_SCHEMAS = 256;

/** Ajv's `errorsText`: `data<instancePath> <message>` joined with ", ". */
const AJV_MUST_ENTRY = /^data(\/.*?)? (must\b.*)$/s;
const AJV_OTHER_ENTRY = /^data(\/\S*)? (.*)$/s;
const REQUIRED_MESSAGE = /^must have required property '(.*)'$/s;

function escapeToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * Reads the violations back from an Ajv error text. Best effort: a key that contains
 * ", data" or " must " can split an entry in the wrong place; the message is kept whole then.
 */
export function parseViolations(errorMessage: string): SchemaViolation[] {
  return errorMessage.split(/, (?=data[/ ])/).map((entry) => {
    const match = AJV_MUST_ENTRY.exec(entry) ?? AJV_OTHER_ENTRY.exec(entry);
    if (match === null) return { path: null, message: entry };
    const path = match[1] ?? "";
    const message = match[2] ?? entry;
    const missing = REQUIRED_MESSAGE.exec(message)?.[1];
    return { path: missing === undefined ? path : `${path}/${escapeToken(missing)}`, message };
  });
}

/**
 * A checker that validates exactly as the SDK Client does, because it is the SDK's own
 * validator (`AjvJsonSchemaValidator` of @modelcontextprotocol/sdk 1.32: Ajv 8, formats
 * validated, all errors collected). Failures are read back into paths (parseViolations).
 * Compiled validators are cached by the schema's JSON text (an McpServer renders a fresh schema
 * object on every tools/list); past MAX_COMPILED_SCHEMAS distinct schemas the cache and the
 * provider are replaced, so memory stays bounded. A schema that cannot be compiled throws the
 * provider's error.
 */
export function createJsonSchemaChecker(options: JsonSchemaCheckerOptions = {}): JsonSchemaChecker {
  const createProvider = options.createProvider ?? (() => new AjvJsonSchemaValidator());
  let provider = createProvider();
  const compiled = new Map<string, JsonSchemaValidator<unknown>>();
  const validatorOf = (schema: JsonSchema): JsonSchemaValidator<unknown> => {
    const key = JSON.stringify(schema);
    const known = compiled.get(key);
    if (known !== undefined) return known;
    if (compiled.size >= MAX_COMPILED_SCHEMAS) {
      compiled.clear();
      provider = createProvider();
    }
    const validate = provider.getValidator<unknown>(schema as JsonSchemaType);
    compiled.set(key, validate);
    return validate;
  };
  return {
    check(schema, value) {
      const verdict = validatorOf(schema)(value);
      if (verdict.valid) return { valid: true };
      return { valid: false, violations: parseViolations(verdict.errorMessage) };
    },
  };
}

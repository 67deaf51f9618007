import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { errorMessage } from "../error-message.js";
import { type Logger, SILENT_LOGGER } from "../logging/logger.js";
import { createWarnOnce } from "../logging/warn-once.js";
import {
  createJsonSchemaChecker,
  type JsonSchema,
  type JsonSchemaChecker,
  MAX_COMPILED_SCHEMAS,
  type SchemaViolation,
} from "./json-schema-validator.js";
import { rewriteOutputSchema, toStructuredContent } from "./rewrite-output-schema.js";

/** What to do with one tool's outputSchema and structuredContent. */
export interface OutputSchemaToolOptions {
  /**
   * Advertise the tool's outputSchema (rewritten to admit bounded results) in tools/list.
   * Default true. When false the schema is removed, so clients validate nothing.
   */
  includeOutputSchema?: boolean;
  /**
   * Keep structuredContent in results. Default true. A tool whose outputSchema is advertised
   * must return structuredContent, so includeOutputSchema forces this on (with one warning).
   */
  includeStructuredContent?: boolean;
}

/** Options of createOutputSchemaPolicy: defaults for every tool, overrides by tool name. */
export interface OutputSchemaPolicyOptions extends OutputSchemaToolOptions {
  tools?: Readonly<Record<string, OutputSchemaToolOptions>>;
  /** Receives one warning per tool for a contradiction or a non-conforming result. */
  logger?: Logger;
  /** The validator; default: createJsonSchemaChecker() (the SDK Client's Ajv configuration). */
  checker?: JsonSchemaChecker;
}

/** The effective choice for one tool. */
export interface OutputSchemaDecision {
  includeOutputSchema: boolean;
  includeStructuredContent: boolean;
}

/** The tool fields the policy reads: its name and its own (original) outputSchema. */
export type ToolOutputShape = Pick<Tool, "name" | "outputSchema">;

/** outputSchema handling for every tool of a server (SPEC.md §2, docs/sdk-notes.md 4-5). */
export interface OutputSchemaPolicy {
  /** The effective options of a tool; warns once when includeOutputSchema overrides the other. */
  decide(tool: ToolOutputShape): OutputSchemaDecision;
  /** The tools/list entry: outputSchema rewritten, or removed when not included. */
  advertise<T extends ToolOutputShape>(tool: T): T;
  /**
   * The result to send for a call of `tool` (its original outputSchema), applied to the final
   * result (after bounding). A non-error result whose structuredContent matches neither the
   * original schema nor a bounded shape becomes a diagnostic isError result without
   * structuredContent that names the failing path; an error result keeps its structuredContent
   * only when the advertised schema admits it (the SDK Client validates errors too); without an
   * advertised schema structuredContent is dropped when not included, and an array or scalar
   * there (which MCP forbids) is wrapped as `{value}`.
   */
  enforce(tool: ToolOutputShape, result: CallToolResult): CallToolResult;
}

const MAX_LISTED_VIOLATIONS = 5;
const ANY_OF_MESSAGE = "must match a schema in anyOf";
/** A failing path longer than this is cut in the diagnostic (the contract's path limit is 500). */
const MAX_PATH_CHARS = 200;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describeViolations(violations: readonly SchemaViolation[]): string {
  const listed = violations.slice(0, MAX_LISTED_VIOLATIONS).map((violation) => {
    if (violation.path === null) return violation.message;
    const path =
      violation.path.length > MAX_PATH_CHARS
        ? `${violation.path.slice(0, MAX_PATH_CHARS)}…`
        : violation.path;
    const where = path === "" ? "at the root" : `at ${JSON.stringify(path)}`;
    return `${where}: ${violation.message}`;
  });
  const more = violations.length - listed.length;
  return listed.join("; ") + (more > 0 ? ` (and ${more} more)` : "");
}

function withoutStructuredContent(result: CallToolResult): CallToolResult {
  const { structuredContent: _dropped, ...rest } = result;
  return rest;
}

/**
 * The diagnostic that replaces a result the client would reject: isError, one text block, no
 * structuredContent (the Client validates structuredContent even on errors), `_meta` kept.
 */
export function createOutputSchemaDiagnostic(
  toolName: string,
  problem: string,
  meta?: CallToolResult["_meta"],
): CallToolResult {
  const text = `bounded-mcp: tool ${JSON.stringify(toolName)} ${problem}`;
  const diagnostic: CallToolResult = { isError: true, content: [{ type: "text", text }] };
  if (meta !== undefined) diagnostic._meta = meta;
  return diagnostic;
}

/**
 * The original schema alone, as placed in the rewritten one (definitions hoisted, references
 * rewritten), so that it compiles even when the original's nested $defs would not.
 */
function ownBranch(advertised: JsonSchema): JsonSchema {
  const [branch] = advertised["anyOf"] as unknown[];
  const own: JsonSchema = { type: "object", anyOf: [branch] };
  if (advertised["$defs"] !== undefined) own["$defs"] = advertised["$defs"];
  return own;
}

/**
 * Creates the outputSchema policy of one server. Rewritten schemas are cached by the original's
 * JSON text (up to MAX_COMPILED_SCHEMAS), so an identical schema is advertised as the same object
 * on every tools/list. Warnings are once per tool for the lifetime of the policy.
 */
export function createOutputSchemaPolicy(
  options: OutputSchemaPolicyOptions = {},
): OutputSchemaPolicy {
  const logger = options.logger ?? SILENT_LOGGER;
  const warnOnce = createWarnOnce(logger);
  const checker = options.checker ?? createJsonSchemaChecker();
  const cache = new Map<string, { advertised: JsonSchema; own: JsonSchema }>();
  const schemasOf = (original: JsonSchema) => {
    const key = JSON.stringify(original);
    let schemas = cache.get(key);
    if (schemas === undefined) {
      const advertised = rewriteOutputSchema(original);
      schemas = { advertised, own: ownBranch(advertised) };
      cache.set(key, schemas);
      const oldest = cache.keys().next().value;
      if (cache.size > MAX_COMPILED_SCHEMAS && oldest !== undefined) cache.delete(oldest);
    }
    return schemas;
  };

  const decide = (tool: ToolOutputShape): OutputSchemaDecision => {
    const own = options.tools?.[tool.name];
    const includeOutputSchema = own?.includeOutputSchema ?? options.includeOutputSchema ?? true;
    const wanted = own?.includeStructuredContent ?? options.includeStructuredContent ?? true;
    const advertised = includeOutputSchema && tool.outputSchema !== undefined;
    if (advertised && !wanted) {
      warnOnce(
        `structured-content:${tool.name}`,
        `tool ${JSON.stringify(tool.name)}: includeOutputSchema implies includeStructuredContent, so its structuredContent is kept`,
        { tool: tool.name },
      );
    }
    return { includeOutputSchema, includeStructuredContent: advertised || wanted };
  };

  const diagnose = (tool: ToolOutputShape, problem: string, result: CallToolResult) => {
    warnOnce(`enforce:${tool.name}`, `tool ${JSON.stringify(tool.name)} ${problem}`, {
      tool: tool.name,
    });
    return createOutputSchemaDiagnostic(tool.name, problem, result._meta);
  };

  const enforceResult = (tool: ToolOutputShape, result: CallToolResult): CallToolResult => {
    const decision = decide(tool);
    const original = tool.outputSchema;
    if (original === undefined || !decision.includeOutputSchema) {
      if (!decision.includeStructuredContent) return withoutStructuredContent(result);
      const content: unknown = result.structuredContent;
      if (content === undefined || isObject(content)) return result;
      return { ...result, structuredContent: toStructuredContent(content) };
    }
    const { advertised, own } = schemasOf(original);
    const content = result.structuredContent;
    if (result.isError === true) {
      if (content === undefined || checker.check(advertised, content).valid) return result;
      return withoutStructuredContent(result);
    }
    if (content === undefined) {
      return diagnose(tool, "advertises an outputSchema but returned no structuredContent", result);
    }
    const verdict = checker.check(own, content);
    if (verdict.valid || checker.check(advertised, content).valid) return result;
    // The own branch sits under a one-element anyOf; its summary line says nothing new.
    const violations = verdict.violations.filter(
      (violation) => !(violation.path === "" && violation.message === ANY_OF_MESSAGE),
    );
    return diagnose(
      tool,
      `returned structuredContent that does not match its outputSchema ${describeViolations(violations)}`,
      result,
    );
  };

  return {
    decide,
    advertise(tool) {
      if (tool.outputSchema === undefined) return tool;
      if (!decide(tool).includeOutputSchema) {
        const { outputSchema: _removed, ...rest } = tool;
        return rest as typeof tool;
      }
      return { ...tool, outputSchema: schemasOf(tool.outputSchema).advertised };
    },
    enforce(tool, result) {
      try {
        return enforceResult(tool, result);
      } catch (error) {
        // A schema Ajv cannot compile (a remote $ref, an unknown dialect): the Client could not
        // compile it either, so enforcing adds nothing; say so once and pass the result on.
        warnOnce(
          `compile:${tool.name}`,
          `tool ${JSON.stringify(tool.name)}: its outputSchema cannot be compiled, results are not enforced`,
          { tool: tool.name, error: errorMessage(error) },
        );
        return result;
      }
    },
  };
}

import {
  DEFAULT_LIMITS,
  parseQueryRequest,
  type QueryRequest,
  QueryToolOutputSchema,
} from "@bounded-mcp/contract";
import { createKeyRing } from "../../cursor/key-ring.js";
import type { QueryContext } from "../query-context.js";
import { runQuery } from "../run-query.js";

/** The artifact id every test query uses. */
export const ARTIFACT_ID = "art_0123456789abcdefghij";

/** A fixed key ring: cursors in snapshots stay stable across runs. */
export const TEST_KEY_RING = createKeyRing([{ kid: "test", secret: new Uint8Array(32).fill(7) }]);

/** A query context with default limits, no responseRoot and a fixed key ring. */
export function createTestContext(overrides: Partial<QueryContext> = {}): QueryContext {
  return {
    scopeHash: "scope-a",
    keyRing: TEST_KEY_RING,
    responseRoot: "",
    sourceTruncated: false,
    limits: { ...DEFAULT_LIMITS },
    ...overrides,
  };
}

/** A parsed request with the test artifact id; fails the test when the contract rejects it. */
export function createRequest(input: Record<string, unknown>): QueryRequest {
  const parsed = parseQueryRequest({ artifactId: ARTIFACT_ID, ...input });
  if (!parsed.success) throw new Error(`request rejected: ${JSON.stringify(parsed.error)}`);
  return parsed.data;
}

/** What a test sees: the result as JSON data (as a client receives it), isError, and its bytes. */
export interface QueryCall {
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary envelope members.
  result: any;
  isError: boolean;
  bytes: number;
}

/**
 * Runs one query the way the adapter does (parseQueryRequest, then runQuery) and checks what every
 * answer must satisfy: the contract's output schema, the result budget (inlineBytes; 4096 bytes for
 * an error) and serializedBytes equal to the real size of a success.
 */
export function query(
  document: unknown,
  input: Record<string, unknown>,
  overrides: Partial<QueryContext> = {},
): QueryCall {
  const context = createTestContext(overrides);
  const outcome = runQuery(document, createRequest(input), context);
  const schema = QueryToolOutputSchema.safeParse(outcome.result);
  if (!schema.success) throw new Error(`output schema: ${schema.error.message}`);
  const text = JSON.stringify(outcome.result);
  const bytes = Buffer.byteLength(text);
  const budget = outcome.isError
    ? DEFAULT_LIMITS.maxErrorEnvelopeBytes
    : context.limits.inlineBytes;
  if (bytes > budget) throw new Error(`result of ${bytes} bytes exceeds ${budget}`);
  if (!outcome.isError && outcome.result.responseMeta.serializedBytes !== bytes) {
    throw new Error(`serializedBytes ${outcome.result.responseMeta.serializedBytes} != ${bytes}`);
  }
  return { result: JSON.parse(text), isError: outcome.isError, bytes };
}

/** n8n-like workflow nodes: `count` objects with id, name, type, parameters and a position. */
export function createNodes(count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `node-${index}`,
    name: `Node ${index}`,
    type: index % 3 === 0 ? "n8n-nodes-base.code" : "n8n-nodes-base.set",
    typeVersion: (index % 2) + 1,
    position: [index * 100, 200],
    parameters: { jsCode: `return items.map((item) => item.json.value${index});` },
  }));
}

import {
  BOUNDED_ERROR_CODES,
  BoundedEnvelopeSchema,
  BoundedErrorSchema,
  DEFAULT_LIMITS,
  ERROR_CODE_LIST,
  QUERY_TOOL_NAME,
  QueryErrorResultSchema,
  QueryResultSchema,
} from "@bounded-mcp/contract";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  type CallToolResult,
  CallToolResultSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { expect } from "vitest";
import type { BoundedMcp } from "../../../src/server/create-bounded-mcp.js";
import {
  type Connection,
  connectLowLevelServer,
  createTestAdapter,
} from "../../support/harness.js";
import type { ResultForm } from "./documents.js";

/**
 * The fuzz rig: one adapter with small limits (so documents of a few KiB are stored) and two
 * callers, alice and bob, each reachable two ways over InMemoryTransport with a real SDK Client:
 * an attached low-level Server (the SDK parses the request first, so arguments are objects) and
 * a Server routing every request through `openSession().runToolCall` as the relay does (arguments
 * as received, non-objects included). `checkToolResult` and `checkQueryResult` state what every
 * outcome must be.
 */

/** The rig's limits: small, so that thousands of cases store, page and cut quickly. */
export const FUZZ_LIMITS = {
  inlineBytes: 4_096,
  previewBytes: 1_024,
  hardBytes: 16_384,
  artifactMaxBytes: 262_144,
} as const;

/**
 * Cases per property: `base` times BOUNDED_MCP_FUZZ_SCALE (default 1; `pnpm soak` sets 40, so
 * the 5,000 cases of the test run become 200,000).
 */
export function fuzzRuns(base: number): number {
  const scale = Number(process.env["BOUNDED_MCP_FUZZ_SCALE"] ?? "1");
  return Math.max(1, Math.round(base * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}

/** Characters kept of a failure report's head (seed, path, counterexample) and tail (the error). */
const REPORT_HEAD_CHARS = 12_000;
const REPORT_TAIL_CHARS = 6_000;

/** Shortens a fast-check failure report: string literals cut to 160 characters, the middle dropped; seed and path kept. */
export function shortenReport(message: string): string {
  const cut = message.replace(/"((?:[^"\\]|\\.){160})(?:[^"\\]|\\.)+"/g, '"$1…(cut)"');
  if (cut.length <= REPORT_HEAD_CHARS + REPORT_TAIL_CHARS) return cut;
  return `${cut.slice(0, REPORT_HEAD_CHARS)}\n…(report cut)…\n${cut.slice(-REPORT_TAIL_CHARS)}`;
}

/**
 * fc.assert parameters of a fuzz property: `runs` cases, and a reporter that throws the
 * default report (seed and path first, to replay the case with `{seed, path}`) shortened so a
 * counterexample holding a 100 KiB document stays readable.
 */
export function fuzzParameters<T>(runs: number, perCaseMs = 60): fc.Parameters<T> {
  return {
    numRuns: runs,
    // Shrinking a large counterexample may take long: stop (and fail) before the test timeout.
    interruptAfterTimeLimit: fuzzTimeout(runs, perCaseMs) - 30_000,
    markInterruptAsFailure: true,
    ...(process.env["BOUNDED_MCP_FUZZ_NO_SHRINK"] === "1" ? { endOnFailure: true } : {}),
    // Replays one reported case: BOUNDED_MCP_FUZZ_SEED and BOUNDED_MCP_FUZZ_PATH from its report.
    ...(process.env["BOUNDED_MCP_FUZZ_SEED"] === undefined
      ? {}
      : {
          seed: Number(process.env["BOUNDED_MCP_FUZZ_SEED"]),
          ...(process.env["BOUNDED_MCP_FUZZ_PATH"] === undefined
            ? {}
            : { path: process.env["BOUNDED_MCP_FUZZ_PATH"] }),
        }),
    reporter(details) {
      if (!details.failed) return;
      const cause =
        details.errorInstance instanceof Error
          ? details.errorInstance.message
          : String(details.errorInstance);
      throw new Error(shortenReport(`${fc.defaultReportMessage(details)}\nFailure: ${cause}`), {
        cause: details.errorInstance,
      });
    },
  };
}

/**
 * A test timeout derived from the work: `runs` cases at a generous `perCaseMs` (a loaded 2-core
 * machine runs a case in a few milliseconds), plus a minute for set-up.
 */
export function fuzzTimeout(runs: number, perCaseMs = 60): number {
  return 60_000 + runs * perCaseMs;
}

/** The two routes a request can take into the adapter. */
export type Route = "attached" | "routed";

/** One caller: a scope (its session id) with a client on each route. */
export interface Caller {
  name: string;
  attached: Connection;
  routed: { client: Client; close(): Promise<void> };
}

/** The adapter, its callers, and the document the upstream tool returns next. */
export interface Rig {
  bounded: BoundedMcp;
  alice: Caller;
  bob: Caller;
  /** What the `upstream` tool returns on its next call. */
  next: { result: CallToolResult };
  close(): Promise<void>;
}

const UPSTREAM: Tool = { name: "upstream", inputSchema: { type: "object" } };

async function connectRouted(bounded: BoundedMcp, sessionId: string, next: Rig["next"]) {
  const server = new Server(
    { name: "routed", version: "1.0.0" },
    { capabilities: { tools: {}, resources: {} } },
  );
  const session = bounded.openSession({ listTools: async () => [UPSTREAM] });
  server.fallbackRequestHandler = async (request, extra) => {
    if (request.method === "tools/list") {
      return { tools: session.advertiseTools([UPSTREAM], { firstPage: true }) };
    }
    if (request.method === "tools/call") {
      return session.runToolCall(request, extra, async () => next.result);
    }
    throw new Error(`unexpected ${request.method}`);
  };
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serverSide.sessionId = sessionId;
  await server.connect(serverSide);
  const client = new Client({ name: "fuzz-routed", version: "1.0.0" });
  await client.connect(clientSide);
  await client.listTools();
  return {
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** Starts the rig: memory store with a quota, a counting query clock (deterministic slices). */
export async function startRig(): Promise<Rig> {
  let ticks = 0;
  const bounded = createTestAdapter({
    ...FUZZ_LIMITS,
    quotaBytes: 64 * 1024 * 1024,
    parseCacheBytes: 32 * 1024 * 1024,
    queryClock: () => {
      ticks += 1;
      return ticks;
    },
  });
  const next: Rig["next"] = { result: { content: [] } };
  const tools = { upstream: { result: () => next.result } };
  const caller = async (name: string): Promise<Caller> => {
    const attached = await connectLowLevelServer(bounded, tools, { sessionId: name });
    await attached.client.listTools();
    return { name, attached, routed: await connectRouted(bounded, name, next) };
  };
  const alice = await caller("alice");
  const bob = await caller("bob");
  return {
    bounded,
    alice,
    bob,
    next,
    async close() {
      for (const one of [alice, bob]) {
        await one.attached.close();
        await one.routed.close();
      }
      await bounded.dispose();
    },
  };
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? "");
}

/** The upstream tool's result for `document` in `form`. */
export function upstreamResult(document: unknown, form: ResultForm): CallToolResult {
  const text = JSON.stringify(document, null, form === "indented" ? 2 : undefined) ?? "null";
  if (form === "plain") return { content: [{ type: "text", text: `Result follows.\n${text}` }] };
  if (form === "error") return { content: [{ type: "text", text }], isError: true };
  if (form === "structured") {
    const structuredContent =
      typeof document === "object" && document !== null && !Array.isArray(document)
        ? (document as Record<string, unknown>)
        : { value: document };
    return {
      content: [{ type: "text", text: JSON.stringify(structuredContent) }],
      structuredContent,
    };
  }
  return { content: [{ type: "text", text }] };
}

/** Calls a tool on one route; a rejection (a JSON-RPC error) is returned as `{ rejected }`. */
export async function callTool(
  caller: Caller,
  route: Route,
  name: string,
  argumentsValue: unknown,
): Promise<CallToolResult | { rejected: unknown }> {
  try {
    if (route === "attached") {
      return (await caller.attached.client.callTool({
        name,
        arguments: argumentsValue as Record<string, unknown>,
      })) as CallToolResult;
    }
    const params = { name, arguments: argumentsValue } as { name: string };
    // request() rather than callTool(): it sends non-object arguments as they are.
    const result = await caller.routed.client.request(
      { method: "tools/call", params },
      CallToolResultSchema,
    );
    return result as CallToolResult;
  } catch (error) {
    return { rejected: error instanceof Error ? `${error.name}: ${error.message}` : error };
  }
}

function notRejected(outcome: CallToolResult | { rejected: unknown }): CallToolResult {
  expect(outcome, "a JSON-RPC error or a throw instead of a result").not.toHaveProperty("rejected");
  return outcome as CallToolResult;
}

/** The envelope in structuredContent, checked to be exactly the JSON of the only text block. */
function envelopeOf(result: CallToolResult, extraBlocks: boolean): Record<string, unknown> {
  const structured = result.structuredContent;
  expect(structured, "structuredContent").toBeTypeOf("object");
  const [first, ...rest] = result.content;
  expect(first).toEqual({ type: "text", text: JSON.stringify(structured) });
  if (!extraBlocks) expect(rest).toEqual([]);
  return structured as Record<string, unknown>;
}

/**
 * What a bounded upstream result must be: the very result when its JSON fits inlineBytes; else
 * the bounded envelope (at most previewBytes) or, only for a payload over artifactMaxBytes, the
 * ARTIFACT_TOO_LARGE bounded error; never over hardBytes, never a rejection.
 */
export function checkToolResult(
  sent: CallToolResult,
  outcome: CallToolResult | { rejected: unknown },
): { artifactId: string | null } {
  const received = notRejected(outcome);
  const sentBytes = jsonBytes(sent);
  expect(jsonBytes(received)).toBeLessThanOrEqual(FUZZ_LIMITS.hardBytes);
  if (sentBytes <= FUZZ_LIMITS.inlineBytes) {
    expect(received.content).toEqual(sent.content);
    // As the SDK delivers it: its CallToolResultSchema rebuilds structuredContent as a record,
    // which drops an own top-level `__proto__` key with or without the adapter (SDK 1.32.2).
    const delivered = CallToolResultSchema.parse(sent).structuredContent;
    expect(JSON.stringify(received.structuredContent)).toBe(JSON.stringify(delivered));
    expect(received.isError).toBe(sent.isError);
    return { artifactId: null };
  }
  const envelope = envelopeOf(received, true);
  expect(jsonBytes(envelope)).toBeLessThanOrEqual(FUZZ_LIMITS.previewBytes);
  const first = sent.content[0];
  const textBytes = first?.type === "text" ? Buffer.byteLength(first.text) : 0;
  const payloadBytes = [
    textBytes,
    ...(sent.structuredContent ? [jsonBytes(sent.structuredContent)] : []),
  ];
  if ("error" in envelope) {
    const error = BoundedErrorSchema.parse(envelope);
    expect(BOUNDED_ERROR_CODES).toContain(error.error.code);
    expect(error.error.code).toBe("ARTIFACT_TOO_LARGE");
    expect(Math.max(...payloadBytes)).toBeGreaterThan(FUZZ_LIMITS.artifactMaxBytes);
    expect(received.isError).toBe(true);
    return { artifactId: null };
  }
  expect(Math.min(...payloadBytes)).toBeLessThanOrEqual(FUZZ_LIMITS.artifactMaxBytes);
  const bounded = BoundedEnvelopeSchema.parse(envelope);
  return { artifactId: bounded.responseMeta.artifact.id };
}

/** A query outcome: the parsed envelope, whether it is an error, and its code. */
export interface QueryOutcome {
  isError: boolean;
  code: string | null;
  output: Record<string, unknown>;
  nextCursor: string | null;
}

/**
 * What every query_response_artifact outcome must be (SPEC.md §5, §6): the same JSON in
 * structuredContent and as the only text block; an error envelope with a code of the contract's
 * list within maxErrorEnvelopeBytes, or a result within min(inlineBytes, hardBytes) whose
 * serializedBytes is its own size; never over hardBytes, never a rejection.
 */
export function checkQueryResult(outcome: CallToolResult | { rejected: unknown }): QueryOutcome {
  const received = notRejected(outcome);
  expect(jsonBytes(received)).toBeLessThanOrEqual(FUZZ_LIMITS.hardBytes);
  const output = envelopeOf(received, false);
  const bytes = jsonBytes(output);
  if (received.isError === true) {
    const error = QueryErrorResultSchema.parse(output);
    expect(ERROR_CODE_LIST).toContain(error.response.error.code);
    expect(bytes).toBeLessThanOrEqual(DEFAULT_LIMITS.maxErrorEnvelopeBytes);
    expect(error.responseMeta.serializedBytes).toBe(bytes);
    return { isError: true, code: error.response.error.code, output, nextCursor: null };
  }
  expect(received.isError).toBeUndefined();
  const result = QueryResultSchema.parse(output);
  expect(bytes).toBeLessThanOrEqual(Math.min(FUZZ_LIMITS.inlineBytes, FUZZ_LIMITS.hardBytes));
  expect(result.responseMeta.serializedBytes).toBe(bytes);
  return { isError: false, code: null, output, nextCursor: result.responseMeta.nextCursor };
}

/** Calls the query tool and checks the outcome. */
export async function query(
  caller: Caller,
  route: Route,
  argumentsValue: unknown,
): Promise<QueryOutcome> {
  return checkQueryResult(await callTool(caller, route, QUERY_TOOL_NAME, argumentsValue));
}

/** A JSON copy (own `__proto__` keys stay own keys; undefined members are dropped). */
export function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

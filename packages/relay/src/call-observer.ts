import type { BoundedMcp, Logger } from "@bounded-mcp/mcp-adapter";
import type { CallToolResult } from "./sdk/types.js";

/**
 * What one answered tools/call turned out to be, for logs and metrics: a bounded result (an
 * artifact), a bounded error (nothing stored), a result passed through inline, or a query.
 */
export interface RelayCallEvent {
  /** The tool called (the query tool's name for queries). */
  tool: string;
  kind: "bounded" | "bounded_error" | "inline" | "query";
  /** From the call's arrival to its answer, upstream and bounding included. */
  ms: number;
  /** The result's serialized bytes as the tool produced them (bounded results and errors), else null. */
  bytesReceived: number | null;
  /** Bytes of the answer's JSON as sent to the model. */
  bytesToModel: number;
  /** The stored artifact (bounded results) or the queried one, else null. */
  artifactId: string | null;
  /** The contract's error code of a bounded error or a failed query, else null. */
  errorCode: string | null;
  /**
   * Which path answered (set by the relay's observer, not by describeCall): "lane" for the call
   * lane (README "The call lane"), "server" for the relay's SDK Server.
   */
  path?: "lane" | "server";
}

/**
 * The key that marks the handler context of a call the relay's call lane answers (the lane's
 * context has it, true), so its event says `path: "lane"`.
 */
export const LANE_CALL: unique symbol = Symbol("bounded-mcp relay lane call");

type Record_ = Record<string, unknown>;

function asRecord(value: unknown): Record_ | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record_)
    : undefined;
}

/**
 * The answer's JSON: structuredContent, else the first text block when it is a small JSON object
 * that names a responseMeta (every branch of describeCall but "inline" reads it, so an ordinary
 * JSON text passed through inline is not parsed a second time on its way to the model).
 */
function envelopeOf(result: Record_): Record_ | undefined {
  const structured = asRecord(result.structuredContent);
  if (structured !== undefined) return structured;
  const first = asRecord((result.content as unknown[] | undefined)?.[0]);
  if (first?.type !== "text" || typeof first.text !== "string" || first.text.length > 65_536) {
    return undefined;
  }
  if (!first.text.includes('"responseMeta"')) return undefined;
  try {
    return asRecord(JSON.parse(first.text));
  } catch {
    return undefined;
  }
}

function codeOf(value: unknown): string | null {
  const code = asRecord(asRecord(value)?.error)?.code;
  return typeof code === "string" ? code : null;
}

/**
 * Classifies one answered call from its arguments and its result (pure; never throws).
 * `measureInline: false` leaves `bytesToModel` 0 on inline results instead of serializing the
 * answer once more (the observer does so when no `onToolCall` reads inline events).
 */
export function describeCall(
  tool: string,
  queryTool: string,
  argumentsValue: unknown,
  result: unknown,
  ms: number,
  options: { measureInline?: boolean } = {},
): RelayCallEvent {
  const event = classifyCall(tool, queryTool, argumentsValue, result, ms);
  if (event.kind !== "inline" || options.measureInline !== false) {
    event.bytesToModel = Buffer.byteLength(JSON.stringify(result) ?? "");
  }
  return event;
}

/**
 * One event, every field in its place (built as one literal: on Node 20 an object spread
 * followed by more properties costs microseconds, on every call).
 */
function eventOf(
  tool: string,
  ms: number,
  kind: RelayCallEvent["kind"],
  bytesReceived: number | null,
  artifactId: string | null,
  errorCode: string | null,
): RelayCallEvent {
  return { tool, ms, kind, bytesReceived, artifactId, errorCode, bytesToModel: 0 };
}

function classifyCall(
  tool: string,
  queryTool: string,
  argumentsValue: unknown,
  result: unknown,
  ms: number,
): RelayCallEvent {
  const record = asRecord(result) ?? {};
  const envelope = envelopeOf(record);
  if (tool === queryTool) {
    const artifactId = asRecord(argumentsValue)?.artifactId;
    return eventOf(
      tool,
      ms,
      "query",
      null,
      typeof artifactId === "string" ? artifactId : null,
      codeOf(envelope?.response) ?? codeOf(envelope),
    );
  }
  const meta = asRecord(envelope?.responseMeta);
  const serialized = meta?.serializedBytes;
  const artifactId = asRecord(meta?.artifact)?.id;
  const bounded = meta?.contractVersion !== undefined && typeof serialized === "number";
  if (bounded && typeof artifactId === "string") {
    return eventOf(tool, ms, "bounded", serialized, artifactId, null);
  }
  if (bounded && codeOf(envelope) !== null) {
    return eventOf(tool, ms, "bounded_error", serialized, null, codeOf(envelope));
  }
  return eventOf(tool, ms, "inline", null, null, null);
}

/** Options of {@link observeToolCalls}. */
export interface CallObserverOptions {
  logger: Logger;
  /** Receives every answered call (metrics); a throw is logged, never fails the call. */
  onToolCall?: ((event: RelayCallEvent) => void) | undefined;
  /** Milliseconds; default performance.now. */
  now?: () => number;
}

/** The one log line of an event: info for bounded results and errors, debug otherwise. */
function logCall(logger: Logger, event: RelayCallEvent): void {
  const { tool, ms, bytesReceived, bytesToModel, artifactId, errorCode } = event;
  if (event.kind === "bounded") {
    logger.info("bounded result", { tool, bytesReceived, bytesToModel, artifactId, ms });
  } else if (event.kind === "bounded_error") {
    logger.info("bounded error", { tool, code: errorCode, bytesReceived, ms });
  } else if (event.kind === "query" && errorCode !== null) {
    logger.info("query error", { tool, code: errorCode, artifactId, ms });
  } else if (event.kind === "query") {
    logger.debug("query answered", { tool, artifactId, bytesToModel, ms });
  }
}

/**
 * The adapter as the relay uses it, with every tools/call answer of its sessions timed and
 * described: one info log line per bounded result (tool, bytes received, bytes to the model,
 * artifact id, ms), per bounded error and per failed query (its code); successful queries and
 * inline results at debug (queries) or not at all (inline). `onToolCall` receives every event.
 * forwardToolCall (the call lane's) is observed the same way, from the call's check to its
 * answer, without adding a microtask hop to a synchronous answer.
 * Limits: `ms` includes the wait for the upstream; a call that throws (a protocol error) is not
 * described; inline results are measured by one JSON.stringify of the answer (at most
 * inlineBytes), and only when `onToolCall` is given (nothing else reads them).
 */
export function observeToolCalls(bounded: BoundedMcp, options: CallObserverOptions): BoundedMcp {
  const now = options.now ?? (() => performance.now());
  const queryTool = bounded.queryTool.name;
  const report = (event: RelayCallEvent) => {
    logCall(options.logger, event);
    try {
      options.onToolCall?.(event);
    } catch (error) {
      options.logger.warn("the tool-call observer failed", { error: String(error) });
    }
  };
  const observe = (
    request: { params?: unknown },
    extra: object,
    result: CallToolResult,
    started: number,
  ): CallToolResult => {
    const params = asRecord(request.params);
    const tool = typeof params?.name === "string" ? params.name : "unknown";
    const event = describeCall(
      tool,
      queryTool,
      params?.arguments,
      result,
      Math.round(now() - started),
      { measureInline: options.onToolCall !== undefined },
    );
    event.path = (extra as { [LANE_CALL]?: boolean })[LANE_CALL] === true ? "lane" : "server";
    report(event);
    return result;
  };
  return {
    ...bounded,
    openSession(sessionOptions) {
      const session = bounded.openSession(sessionOptions);
      return {
        ...session,
        async runToolCall(request, extra, next, callOptions) {
          const started = now();
          const result = await session.runToolCall(request, extra, next, callOptions);
          return observe(request, extra, result, started);
        },
        forwardToolCall(request, extra) {
          const started = now();
          const forwarded = session.forwardToolCall(request, extra);
          if (forwarded === undefined) return undefined;
          return {
            // Observed as runToolCall's answer is: a synchronous answer stays synchronous.
            finish(produced) {
              const answer = forwarded.finish(produced);
              return answer instanceof Promise
                ? answer.then((result) => observe(request, extra, result, started))
                : observe(request, extra, answer, started);
            },
          };
        },
      };
    },
  };
}

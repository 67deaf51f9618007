import type { AdapterSession, Logger } from "@bounded-mcp/mcp-adapter";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CancelledNotificationSchema,
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  McpError,
  type MessageExtraInfo,
  ProgressNotificationSchema,
  type RequestId,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { LANE_CALL } from "../call-observer.js";
import { classifyMessage, hasFastDispatch, isPlain, withFastDispatch } from "./fast-dispatch.js";
import { asDownstreamError, type RelayErrorLike } from "./relay-errors.js";
import type { DownstreamExtra } from "./types.js";

type Plain = Record<string, unknown>;
/** What the adapter session's forwardToolCall returns for a call it takes. */
type ForwardedToolCall = NonNullable<ReturnType<AdapterSession["forwardToolCall"]>>;

/**
 * Where the lane reaches one session's upstream: the transport its SDK Client is connected over
 * now (when the lane can take that transport's answers) and whether the upstream is connected.
 * Filled by {@link connectThroughPort} for each transport the supervisor creates.
 */
export interface UpstreamPort {
  transport: Transport | undefined;
  lane: CallLane | undefined;
  /** True while the upstream is connected (not starting, restarting or closed). */
  connected: () => boolean;
}

/** A port whose transport is set by {@link connectThroughPort}. */
export function createUpstreamPort(connected: () => boolean): UpstreamPort {
  return { transport: undefined, lane: undefined, connected };
}

/**
 * The fast dispatch of `transport` for `client` (see withFastDispatch), with the port's lane
 * seeing every message first; the port uses the transport only when that dispatch took over.
 */
export function connectThroughPort<T extends Transport>(
  port: UpstreamPort,
  transport: T,
  client: Client,
): T {
  const dispatched = withFastDispatch(transport, client, (message) =>
    port.lane === undefined ? false : port.lane.takeUpstream(message),
  );
  port.transport = hasFastDispatch(dispatched) ? dispatched : undefined;
  return dispatched;
}

/** The relay's lane for tools/call of forwarded upstream tools; see {@link createCallLane}. */
export interface CallLane {
  /** Takes a downstream tools/call it can answer, or a cancellation of one; false otherwise. */
  takeDownstream(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): boolean;
  /** Takes an upstream answer or progress notification of a call it sent; false otherwise. */
  takeUpstream(message: JSONRPCMessage): boolean;
  /** The downstream connection closed: its calls are cancelled upstream, never answered. */
  downstreamClosed(): void;
  /** Calls the lane has taken so far. */
  readonly calls: number;
}

/** What {@link createCallLane} works with. */
export interface CallLaneOptions {
  server: Server;
  upstream: Client;
  port: UpstreamPort;
  /** The adapter session of this connection (the relay's, observed). */
  session: AdapterSession;
  /** Tools the lane leaves to the relay server: the query tool, tools with a hook. */
  ownsTool: (name: string) => boolean;
  requestOptions: Pick<RequestOptions, "timeout" | "resetTimeoutOnProgress" | "maxTotalTimeout">;
  logger: Logger;
}

/** One call on the lane, from the downstream request to its answer. */
interface LaneCall {
  readonly downstreamId: RequestId;
  readonly callerToken: string | number | undefined;
  /** The id of the request sent upstream, once sent. */
  upstreamId: number | undefined;
  startTime: number;
  /** When the call times out (Date.now() milliseconds), unless progress arrives first. */
  deadline: number;
  settle: ((outcome: { result: Plain } | { error: unknown }) => void) | undefined;
  cancelled: boolean;
  controller: AbortController | undefined;
}

const PLAIN_CALL_KEYS = new Set(["name", "arguments", "_meta"]);
const DEFAULT_TIMEOUT_MS = 60_000;

function isPlainCallParams(params: unknown): params is Plain & { name: string } {
  if (typeof params !== "object" || params === null) return false;
  const record = params as Plain;
  if (typeof record.name !== "string") return false;
  for (const key in record) if (!PLAIN_CALL_KEYS.has(key)) return false;
  return true;
}

/**
 * `{ ...params, _meta: { ...params._meta, progressToken } }` (what the SDK Client sends: the
 * same keys in the same order), built by assignment: on Node 20 a spread followed by more
 * properties costs a microsecond or more per call.
 */
function withProgressToken(params: Plain, progressToken: number): Plain {
  const sent: Plain = {};
  for (const key of Object.keys(params)) sent[key] = params[key];
  const meta: Plain = {};
  const given = params._meta as Plain | undefined;
  if (given) for (const key of Object.keys(given)) meta[key] = given[key];
  meta.progressToken = progressToken;
  sent._meta = meta;
  return sent;
}

/**
 * True for `arguments` the adapter's runToolCall passes on to `next` unchanged (absent, or a
 * plain object without an own `__proto__` key: findArgumentsProblem and parseCallToolRequest's
 * checked shape); anything else it may answer itself, without calling the tool.
 */
function passesArguments(value: unknown): boolean {
  return value === undefined || isPlain(value);
}

/** The SDK 1.32 Client's request id counter (a private member), when it has one. */
function requestCounter(client: Client): { _requestMessageId: number } | undefined {
  const counter = client as unknown as { _requestMessageId?: unknown };
  return typeof counter._requestMessageId === "number"
    ? (counter as { _requestMessageId: number })
    : undefined;
}

/** The answer a response gives, as the SDK Protocol would read it, or undefined (not a response). */
function responseOutcome(
  message: JSONRPCMessage,
): { result: Plain } | { error: Plain } | undefined {
  const record = message as unknown as Plain;
  const kind = classifyMessage(message);
  if (kind === "response") {
    return record.result !== undefined
      ? { result: record.result as Plain }
      : { error: record.error as Plain };
  }
  if (kind !== undefined) return undefined;
  if (isJSONRPCResultResponse(message)) return { result: record.result as Plain };
  if (isJSONRPCErrorResponse(message)) return { error: record.error as Plain };
  return undefined;
}

/** The SDK server's error response to a handler that threw `error` (Protocol._onrequest). */
function errorResponse(id: RequestId, error: RelayErrorLike): JSONRPCMessage {
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: Number.isSafeInteger(error.code) ? (error.code as number) : ErrorCode.InternalError,
      message: error.message ?? "Internal error",
      ...(error.data !== undefined && { data: error.data }),
    },
  };
}

/** The reason an SDK AbortSignal carries when aborted with `reason` (a DOMException without one). */
function abortReason(call: LaneCall, reason: unknown): unknown {
  // Kept on the call, so a handler that reads `extra.signal` afterwards sees it aborted.
  call.controller ??= new AbortController();
  const aborting = call.controller;
  if (!aborting.signal.aborted) aborting.abort(reason);
  return aborting.signal.reason;
}

/**
 * The handler context the SDK Server would give a call (Protocol._onrequest's `extra`), as a
 * class: its AbortSignal is made on first use only (an AbortController costs microseconds), and
 * it carries {@link LANE_CALL} for the call observer.
 */
class LaneExtra {
  readonly _meta: Plain | undefined;
  readonly authInfo: MessageExtraInfo["authInfo"];
  readonly requestId: RequestId;
  readonly requestInfo: MessageExtraInfo["requestInfo"];
  readonly taskId = undefined;
  readonly taskStore = undefined;
  readonly taskRequestedTtl = undefined;
  readonly closeSSEStream: MessageExtraInfo["closeSSEStream"];
  readonly closeStandaloneSSEStream: MessageExtraInfo["closeStandaloneSSEStream"];
  readonly [LANE_CALL] = true;

  constructor(
    private readonly call: LaneCall,
    private readonly server: Server,
    readonly sessionId: string | undefined,
    meta: Plain | undefined,
    extra: MessageExtraInfo | undefined,
  ) {
    this._meta = meta;
    this.authInfo = extra?.authInfo;
    this.requestId = call.downstreamId;
    this.requestInfo = extra?.requestInfo;
    this.closeSSEStream = extra?.closeSSEStream;
    this.closeStandaloneSSEStream = extra?.closeStandaloneSSEStream;
  }

  get signal(): AbortSignal {
    this.call.controller ??= new AbortController();
    return this.call.controller.signal;
  }

  async sendNotification(notification: ServerNotification): Promise<void> {
    if (this.call.cancelled) return;
    await this.server.notification(notification, { relatedRequestId: this.requestId });
  }

  async sendRequest(
    request: ServerRequest,
    schema: Parameters<Server["request"]>[1],
    requestOptions?: RequestOptions,
  ): Promise<unknown> {
    if (this.call.cancelled)
      throw new McpError(ErrorCode.ConnectionClosed, "Request was cancelled");
    return this.server.request(request, schema, {
      ...requestOptions,
      relatedRequestId: this.requestId,
    });
  }
}

/**
 * The relay's lane for a tools/call of a forwarded upstream tool (docs/sdk-notes.md 24): the
 * call skips the SDK Server and Client Protocol layers (their request and response objects,
 * abort controllers, zod parses and microtask hops) and runs the same adapter session code as
 * the relay server's route (parse, bounding, outputSchema enforcement, metrics and logs:
 * forwardToolCall, observed, whose finish answers a small result that passes through
 * synchronously, so it is written downstream in the same turn as its upstream answer arrived;
 * runToolCall when the session leaves the call to it), with the upstream request sent and
 * answered here as the SDK Protocol
 * would: the SDK Client's own request id counter (so the upstream sees what it would), a
 * progressToken on every call, the request options' timeout (reset on progress, capped by
 * maxTotalTimeout), the caller's progress relayed with its own token, cancellation in both
 * directions (notifications/cancelled with the upstream id), the SDK's error responses and
 * codes. Taken: a plain tools/call (name, arguments, _meta; no task, no related task) of a tool
 * the relay server does not own (not the query tool, no hook) while the upstream is connected;
 * everything else goes to the relay server unchanged. Limits: relies on the Protocol's private
 * request counter of SDK 1.32 (without it nothing is taken); an upstream answering a plain call
 * with a task result gets no progress relayed after that answer.
 */
export function createCallLane(options: CallLaneOptions): CallLane {
  const { server, upstream, port, session, logger } = options;
  const counter = requestCounter(upstream);
  const timeout = options.requestOptions.timeout ?? DEFAULT_TIMEOUT_MS;
  const { maxTotalTimeout, resetTimeoutOnProgress } = options.requestOptions;
  /** Calls answered upstream or not, by downstream id (for a downstream cancellation). */
  const byDownstream = new Map<RequestId, LaneCall>();
  /** Calls waiting for their upstream answer, by upstream id. */
  const pending = new Map<number, LaneCall>();
  let calls = 0;

  const previousOnclose = upstream.onclose;
  upstream.onclose = () => {
    previousOnclose?.();
    upstreamClosed();
  };

  /**
   * One timer for every call waiting upstream (one per call cost microseconds of timer-list
   * upkeep on each call): it fires at or before the earliest deadline, times out the expired
   * calls and re-arms for the next one. It holds the process open only while a call waits, as
   * the SDK's per-request timers do: when none waits it is unref'd, not cleared (arming a timer
   * again on the next call costs more than its ref), and goes when it fires with nothing to
   * sweep or when either side closes.
   */
  let sweepTimer: NodeJS.Timeout | undefined;

  function sweep(): void {
    sweepTimer = undefined;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const call of [...pending.values()]) {
      if (call.deadline <= now) timeOut(call);
      else if (call.deadline < next) next = call.deadline;
    }
    if (next !== Number.POSITIVE_INFINITY) sweepTimer = setTimeout(sweep, next - now);
  }

  /** Starts (or restarts, on progress) the call's timeout, from `now`. */
  function watch(call: LaneCall, now: number): void {
    call.deadline = now + timeout;
    if (sweepTimer === undefined) sweepTimer = setTimeout(sweep, timeout);
    else if (!sweepTimer.hasRef()) sweepTimer.ref();
  }

  function timeOut(call: LaneCall): void {
    const error = McpError.fromError(ErrorCode.RequestTimeout, "Request timed out", { timeout });
    fail(call, error);
    if (call.upstreamId !== undefined) sendCancellation(call.upstreamId, error);
  }

  function stopWaiting(call: LaneCall): void {
    if (call.upstreamId !== undefined && pending.get(call.upstreamId) === call) {
      pending.delete(call.upstreamId);
      if (pending.size === 0) sweepTimer?.unref();
    }
  }

  function fail(call: LaneCall, error: unknown): void {
    stopWaiting(call);
    call.settle?.({ error });
  }

  function sendCancellation(upstreamId: number, reason: unknown): void {
    const transport = port.transport;
    if (transport === undefined) return;
    transport
      .send({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: upstreamId, reason: String(reason) },
      })
      .catch((error: unknown) =>
        upstream.onerror?.(new Error(`Failed to send cancellation: ${error}`)),
      );
  }

  /**
   * Sends the call upstream as the SDK Client's request() would, writing it before any other
   * bookkeeping (that is the critical path); its answer goes to `call.settle`.
   */
  function forward(call: LaneCall, params: Plain): void {
    const transport = port.transport as Transport;
    const upstreamId = (counter as { _requestMessageId: number })._requestMessageId++;
    call.upstreamId = upstreamId;
    pending.set(upstreamId, call);
    const sent = transport.send({
      method: "tools/call",
      params: withProgressToken(params, upstreamId),
      jsonrpc: "2.0",
      id: upstreamId,
    });
    const now = Date.now();
    call.startTime = now;
    watch(call, now);
    sent.catch((error: unknown) => {
      stopWaiting(call);
      call.settle?.({ error });
    });
  }

  /** The call's upstream answer as a promise (what runToolCall's `next` returns). */
  function answerOf(call: LaneCall): Promise<Plain> {
    return new Promise<Plain>((resolve, reject) => {
      call.settle = (outcome) => {
        call.settle = undefined;
        if ("result" in outcome) resolve(outcome.result);
        else reject(asDownstreamError(outcome.error));
      };
    });
  }

  /**
   * Answers the call through the adapter session's forwardToolCall when it takes the call: the
   * upstream's result is finished (bounded, enforced, observed) as it arrives, and answered at
   * once when that is synchronous (a small result passing through), without the promise chain
   * of runToolCall. False when the session leaves the call to runToolCall.
   */
  function forwardThroughSession(
    call: LaneCall,
    record: Plain,
    extra: LaneExtra,
    transport: Transport,
  ): boolean {
    const id = call.downstreamId;
    const fail = (error: unknown) =>
      answer(call, errorResponse(id, error as RelayErrorLike), transport);
    const succeed = (result: Plain) => answer(call, { result, jsonrpc: "2.0", id }, transport);
    let forwarded: ForwardedToolCall | undefined;
    try {
      forwarded = session.forwardToolCall(
        record as { method: string },
        extra as unknown as DownstreamExtra,
      );
    } catch (error) {
      // What runToolCall rejects with (a malformed request): its error response.
      fail(error);
      return true;
    }
    if (forwarded === undefined) return false;
    const finish = forwarded.finish;
    call.settle = (outcome) => {
      call.settle = undefined;
      if (!("result" in outcome)) {
        fail(asDownstreamError(outcome.error));
        return;
      }
      let answered: ReturnType<ForwardedToolCall["finish"]>;
      try {
        answered = finish(outcome.result);
      } catch (error) {
        fail(error);
        return;
      }
      if (answered instanceof Promise) answered.then(succeed as never, fail);
      else succeed(answered as unknown as Plain);
    };
    return true;
  }

  function answer(call: LaneCall, response: JSONRPCMessage, transport: Transport): void {
    if (call.cancelled) return;
    if (byDownstream.get(call.downstreamId) === call) byDownstream.delete(call.downstreamId);
    transport
      .send(response)
      .catch((error: unknown) => server.onerror?.(new Error(`Failed to send response: ${error}`)));
  }

  function takeCall(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): boolean {
    const record = message as unknown as Plain;
    const params = record.params;
    if (!isPlainCallParams(params) || options.ownsTool(params.name)) return false;
    if (classifyMessage(message) !== "request") return false;
    const transport = server.transport;
    if (counter === undefined || transport === undefined) return false;
    if (port.transport === undefined || upstream.transport !== port.transport) return false;
    if (!port.connected()) return false;
    const id = record.id as RequestId;
    const meta = params._meta as Plain | undefined;
    const call: LaneCall = {
      downstreamId: id,
      callerToken: meta?.progressToken as string | number | undefined,
      upstreamId: undefined,
      startTime: 0,
      deadline: 0,
      settle: undefined,
      cancelled: false,
      controller: undefined,
    };
    calls += 1;
    byDownstream.set(id, call);
    // Arguments runToolCall passes on (absent, or a plain object without an own __proto__) mean
    // it calls `next` at once, synchronously: the call is then sent upstream first, before the
    // adapter's own checks, which overlap the upstream's work instead of delaying it.
    const early = passesArguments(params.arguments);
    if (early) forward(call, params);
    const callExtra = new LaneExtra(call, server, transport.sessionId, meta, extra);
    if (early && forwardThroughSession(call, record, callExtra, transport)) return true;
    const answered = early ? answerOf(call) : undefined;
    answered?.catch(() => {});
    session
      .runToolCall(
        record as { method: string },
        callExtra as unknown as DownstreamExtra,
        () => {
          if (answered !== undefined) return answered as never;
          forward(call, params);
          return answerOf(call) as never;
        },
        { resultSdk: false },
      )
      .then(
        (result) => answer(call, { result, jsonrpc: "2.0", id }, transport),
        (error: RelayErrorLike) => answer(call, errorResponse(id, error), transport),
      );
    return true;
  }

  function cancel(call: LaneCall, reason: unknown): void {
    call.cancelled = true;
    byDownstream.delete(call.downstreamId);
    const why = abortReason(call, reason);
    fail(call, why);
    // The SDK Client sends its cancellation even when the answer already came (the call was
    // being bounded): so does the lane.
    if (call.upstreamId !== undefined) sendCancellation(call.upstreamId, why);
  }

  function takeCancel(message: JSONRPCMessage): boolean {
    const requestId = ((message as unknown as Plain).params as Plain | undefined)?.requestId;
    // The SDK Server ignores a cancellation of a falsy id (0, ""): the lane leaves it to it.
    if (!requestId) return false;
    const call = byDownstream.get(requestId as RequestId);
    if (call === undefined) return false;
    const parsed = CancelledNotificationSchema.safeParse(message);
    if (!parsed.success) return false;
    cancel(call, parsed.data.params.reason);
    return true;
  }

  function takeProgress(message: JSONRPCMessage): boolean {
    const token = ((message as unknown as Plain).params as Plain | undefined)?.progressToken;
    if (token === undefined) return false;
    const call = pending.get(Number(token));
    if (call === undefined) return false;
    const parsed = ProgressNotificationSchema.safeParse(message);
    if (!parsed.success) return false;
    if (resetTimeoutOnProgress === true) {
      const totalElapsed = Date.now() - call.startTime;
      if (maxTotalTimeout && totalElapsed >= maxTotalTimeout) {
        const error = McpError.fromError(
          ErrorCode.RequestTimeout,
          "Maximum total timeout exceeded",
          { maxTotalTimeout, totalElapsed },
        );
        fail(call, error);
        // The SDK path cancels such a call upstream too (its timer still fires later); the lane
        // does so at once, so the upstream tool does not go on working for nobody.
        if (call.upstreamId !== undefined) sendCancellation(call.upstreamId, error);
        return true;
      }
      watch(call, Date.now());
    }
    if (call.callerToken === undefined || call.cancelled) return true;
    const { progressToken: _upstreamToken, ...progress } = parsed.data.params;
    server
      .notification(
        {
          method: "notifications/progress",
          params: { ...progress, progressToken: call.callerToken },
        },
        { relatedRequestId: call.downstreamId },
      )
      .catch((error: unknown) => logger.warn(`progress not relayed: ${error}`));
    return true;
  }

  function takeResponse(message: JSONRPCMessage): boolean {
    const id = (message as unknown as Plain).id;
    if (id === undefined) return false;
    const call = pending.get(Number(id));
    if (call === undefined) return false;
    const outcome = responseOutcome(message);
    if (outcome === undefined) return false;
    stopWaiting(call);
    if ("result" in outcome) call.settle?.(outcome);
    else {
      const { code, message: text, data } = outcome.error;
      call.settle?.({ error: McpError.fromError(code as number, text as string, data) });
    }
    return true;
  }

  /** A side closed: the sweep timer goes, so a closed session is not held until it fires. */
  function stopSweeping(): void {
    if (sweepTimer === undefined) return;
    clearTimeout(sweepTimer);
    sweepTimer = undefined;
  }

  function upstreamClosed(): void {
    stopSweeping();
    if (pending.size === 0) return;
    const closed = McpError.fromError(ErrorCode.ConnectionClosed, "Connection closed");
    for (const call of [...pending.values()]) fail(call, closed);
  }

  return {
    takeDownstream(message, extra) {
      const method = (message as unknown as Plain).method;
      if (method === "tools/call") return takeCall(message, extra);
      if (method === "notifications/cancelled" && byDownstream.size > 0) {
        return takeCancel(message);
      }
      return false;
    },
    takeUpstream(message) {
      if (pending.size === 0) return false;
      const method = (message as unknown as Plain).method;
      if (method === undefined) return takeResponse(message);
      if (method === "notifications/progress") return takeProgress(message);
      return false;
    },
    downstreamClosed() {
      for (const call of [...byDownstream.values()]) cancel(call, undefined);
      stopSweeping();
    },
    get calls() {
      return calls;
    },
  };
}

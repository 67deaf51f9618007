import {
  ARTIFACT_ID_PATTERN,
  createErrorResult,
  type Limits,
  parseQueryRequest,
  QUERY_TOOL_NAME,
  type QueryRequest,
  type QueryToolOutput,
} from "@bounded-mcp/contract";
import {
  type KeyRing,
  type QueryContext,
  type QueryOutcome,
  runPartialQuery,
  runQueryAsync,
  type ViewCache,
} from "@bounded-mcp/query-core";
import type { ArtifactMeta } from "@bounded-mcp/stores";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ArtifactService, OpenOrAnswerResult } from "../artifacts/artifact-service.js";
import type { ScopeContext, ScopeFinder } from "../artifacts/scope.js";
import { exactResultJson } from "../bounding/exact-result-json.js";
import { errorMessage } from "../error-message.js";
import type { Logger } from "../logging/logger.js";
import type { StatsCollector } from "../stats/stats-collector.js";
import { formatRetention } from "./description.js";
import { createPrincipalGate } from "./principal-gate.js";

/**
 * Answers one query_response_artifact call with the §5 envelope; never throws, except that a query
 * still waiting for its caller's turn rejects with the signal's reason when its request is
 * cancelled (the SDK sends no answer for a cancelled request).
 */
export type QueryHandler = (
  argumentsValue: unknown,
  context?: ScopeContext,
) => Promise<CallToolResult>;

/** What the query handler needs; built once per adapter. */
export interface QueryHandlerDependencies {
  artifacts: ArtifactService;
  keyRing: KeyRing;
  findScope: ScopeFinder;
  limits: Limits;
  logger: Logger;
  stats: StatsCollector;
  /**
   * query-core's view cache (the `viewCacheBytes` setting): later pages and following cursors of
   * a filtered, sorted or aggregated view of a parsed artifact cost only the page. Its entries
   * go with the parsed document once the parse cache lets it go. Default: none.
   */
  viewCache?: ViewCache;
  /**
   * Monotonic milliseconds: the clock of query slices and of the textSearch work limit
   * (the `queryWorkMs` setting, `limits.queryWorkMs`). Default performance.now; tests inject one.
   */
  now?: () => number;
  /**
   * Queries of one caller scope (principal) answered at once; more wait their turn, in arrival
   * order, while other scopes' queries go on. Null or absent: no limit.
   */
  maxQueriesPerPrincipal?: number | null;
}

/**
 * The same JSON in structuredContent and as the first text block; isError on errors (§5). The
 * text writes inexact number literals as the upstream wrote them; structuredContent is then the
 * JSON value of that text (SPEC.md §10: `1e400` is null there), as responseMeta.inexactNumbers says.
 */
export function queryToolResult(output: QueryToolOutput, isError: boolean): CallToolResult {
  const { text, structuredContent } = exactResultJson(output);
  return {
    content: [{ type: "text", text }],
    structuredContent,
    ...(isError ? { isError: true } : {}),
  };
}

function echoed(argumentsValue: unknown, key: string): string | null {
  if (typeof argumentsValue !== "object" || argumentsValue === null) return null;
  const value = (argumentsValue as Record<string, unknown>)[key];
  return typeof value === "string" ? value : null;
}

/**
 * Creates the handler of the query tool: the contract's parser decides validity (so
 * `{artifact_id}` and `pageSize: 0` get envelopes with codes, docs/sdk-notes.md 1), the caller's
 * scope decides visibility (another scope's id answers exactly like an unknown one), the parse
 * cache avoids re-reading, and query-core's runQueryAsync builds the page in slices of about
 * 50 ms (SPEC.md §9 rule 6), so a long filter, sort, aggregate or textSearch of one caller never
 * holds up another caller's cheap query for longer than that; with `maxQueriesPerPrincipal`, one
 * caller's many concurrent queries take turns among themselves. Results pass through as
 * query-core built them (responseMeta.extensions, aggregateSkipped, work_limit included).
 */
export function createQueryHandler(dependencies: QueryHandlerDependencies): QueryHandler {
  const { limits, stats } = dependencies;
  const now = dependencies.now ?? (() => performance.now());
  const retention = formatRetention(limits.ttlMs);
  const gate = createPrincipalGate(dependencies.maxQueriesPerPrincipal ?? null);
  const handleMessages = {
    invalid_id:
      "artifactId is not an artifact id. Pass responseMeta.artifact.id of a bounded tool result exactly as received.",
    unknown:
      "No artifact with this id is available to this caller. Pass responseMeta.artifact.id exactly as received, or call the original tool again to get a new artifact.",
    expired: `This artifact has expired (artifacts are kept for ${retention}). Call the original tool again to get a new artifact.`,
  } as const;

  const errorResult = (
    argumentsValue: unknown,
    error: {
      code: Parameters<typeof createErrorResult>[0]["code"];
      message: string;
      details?: Record<string, unknown>;
    },
  ): CallToolResult =>
    queryToolResult(
      createErrorResult({
        ...error,
        artifactId: echoed(argumentsValue, "artifactId"),
        responsePath: echoed(argumentsValue, "responsePath"),
      }),
      true,
    );

  const handleError = (argumentsValue: unknown, reason: keyof typeof handleMessages) =>
    errorResult(argumentsValue, {
      code: "INVALID_ARTIFACT_HANDLE",
      message: handleMessages[reason],
      details: { reason },
    });

  const answer = async (
    argumentsValue: unknown,
    context: ScopeContext,
  ): Promise<{ result: CallToolResult; tool?: string | undefined; cacheHit?: boolean }> => {
    const parsed = parseQueryRequest(argumentsValue);
    if (!parsed.success) return { result: errorResult(argumentsValue, parsed.error) };
    const request = parsed.data;
    if (!ARTIFACT_ID_PATTERN.test(request.artifactId)) {
      return { result: handleError(argumentsValue, "invalid_id") };
    }
    const scope = await dependencies.findScope(context);
    return gate.run(
      scope.hash,
      () => answerFor(argumentsValue, request, scope.hash),
      context.signal,
    );
  };

  const answerFor = async (
    argumentsValue: unknown,
    request: QueryRequest,
    scopeHash: string,
  ): Promise<{ result: CallToolResult; tool?: string | undefined; cacheHit?: boolean }> => {
    const scope = { hash: scopeHash };
    const contextOf = (meta: ArtifactMeta): QueryContext => ({
      scopeHash: scope.hash,
      keyRing: dependencies.keyRing,
      responseRoot: meta.responseRoot,
      sourceTruncated: meta.sourceTruncated,
      limits,
      mediaType: meta.mediaType,
      now,
      ...(dependencies.viewCache === undefined ? {} : { viewCache: dependencies.viewCache }),
    });
    let opened: OpenOrAnswerResult<QueryOutcome>;
    try {
      // A plain page of an artifact that is not parsed yet is answered from its bytes, without
      // parsing the whole document (query-core's runPartialQuery); anything else parses it once.
      opened = await dependencies.artifacts.open(request.artifactId, scope.hash, (body, meta) =>
        runPartialQuery(body, request, contextOf(meta)),
      );
    } catch (error) {
      dependencies.logger.error("the artifact store failed while opening an artifact", {
        error: errorMessage(error),
      });
      const result = errorResult(argumentsValue, {
        code: "ARTIFACT_STORE_UNAVAILABLE",
        message: "The artifact store failed while reading this artifact. Retry the call.",
        details: { retryable: true },
      });
      return { result };
    }
    if (!opened.ok) return { result: handleError(argumentsValue, opened.reason) };
    if ("answered" in opened) {
      const outcome = opened.answered;
      return { result: queryToolResult(outcome.result, outcome.isError), cacheHit: false };
    }
    const { artifact } = opened;
    const outcome = await runQueryAsync(artifact.document, request, contextOf(artifact.meta));
    return {
      result: queryToolResult(outcome.result, outcome.isError),
      tool: artifact.toolName,
      cacheHit: opened.cacheHit,
    };
  };

  return async (argumentsValue, context = {}) => {
    const { result, tool, cacheHit } = await answer(argumentsValue, context);
    const first = result.content[0];
    stats.recordQuery(tool ?? QUERY_TOOL_NAME, {
      bytesSentToModel: first?.type === "text" ? Buffer.byteLength(first.text) : 0,
      ...(cacheHit === undefined ? {} : { parseCacheHit: cacheHit }),
    });
    return result;
  };
}

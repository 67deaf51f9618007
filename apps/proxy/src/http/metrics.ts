import type { BoundedRelay, RelayCallEvent } from "@bounded-mcp/relay";
import { Counter, Gauge, Histogram, Registry } from "prom-client";

/** The proxy's Prometheus metrics; see {@link createProxyMetrics}. */
export interface ProxyMetrics {
  /** Feed it the relay's `onToolCall` events. */
  observe(event: RelayCallEvent): void;
  /** The Prometheus text exposition of every metric. */
  render(): Promise<string>;
  /** The Content-Type of `render()`'s text. */
  readonly contentType: string;
}

/** Seconds; queries answer from the parse cache in milliseconds, a cold parse takes longer. */
const QUERY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Prometheus metrics of one proxy, in its own registry (prom-client 15, no default process
 * metrics): `bounded_mcp_tool_calls_total`, `bounded_mcp_bounded_calls_total`,
 * `bounded_mcp_bytes_received_total` and `bounded_mcp_bytes_sent_total` (per tool, read from the
 * adapter's stats at scrape time), `bounded_mcp_queries_total`,
 * `bounded_mcp_parse_cache_hits_total` / `_misses_total`, `bounded_mcp_query_duration_seconds`
 * (histogram, with the error code or "ok"), `bounded_mcp_store_errors_total` (results and
 * queries answered ARTIFACT_STORE_UNAVAILABLE) and `bounded_mcp_sessions` (open relay sessions).
 * Limits: per-process counters (each replica its own); the relay passes through tool names
 * as labels, so their number is the upstream's tool count.
 */
export function createProxyMetrics(
  relay: Pick<BoundedRelay, "stats" | "sessionCount">,
): ProxyMetrics {
  const registry = new Registry();
  const perTool = (
    name: string,
    help: string,
    read: (stats: ReturnType<BoundedRelay["stats"]>["totals"]) => number,
  ) =>
    new Counter({
      name,
      help,
      labelNames: ["tool"],
      registers: [registry],
      collect() {
        this.reset();
        for (const [tool, stats] of Object.entries(relay.stats().tools)) {
          const value = read(stats);
          if (value > 0) this.inc({ tool }, value);
        }
      },
    });
  perTool("bounded_mcp_tool_calls_total", "tools/call answered, bounded or not", (s) => s.calls);
  perTool(
    "bounded_mcp_bounded_calls_total",
    "calls whose result was over inlineBytes (envelope or bounded error)",
    (s) => s.boundedCalls,
  );
  perTool(
    "bounded_mcp_bytes_received_total",
    "bytes of results as the tools produced them",
    (s) => s.bytesReceived,
  );
  perTool(
    "bounded_mcp_bytes_sent_total",
    "bytes sent to the model (inline results, envelopes, query pages)",
    (s) => s.bytesSentToModel,
  );
  perTool("bounded_mcp_queries_total", "query_response_artifact calls", (s) => s.queries);
  perTool("bounded_mcp_parse_cache_hits_total", "parse-cache hits", (s) => s.parseCacheHits);
  perTool("bounded_mcp_parse_cache_misses_total", "parse-cache misses", (s) => s.parseCacheMisses);
  const queryDuration = new Histogram({
    name: "bounded_mcp_query_duration_seconds",
    help: "query_response_artifact latency, by outcome (ok or the error code)",
    labelNames: ["outcome"],
    buckets: QUERY_BUCKETS,
    registers: [registry],
  });
  const storeErrors = new Counter({
    name: "bounded_mcp_store_errors_total",
    help: "results and queries answered ARTIFACT_STORE_UNAVAILABLE",
    registers: [registry],
  });
  storeErrors.inc(0);
  new Gauge({
    name: "bounded_mcp_sessions",
    help: "open relay sessions (HTTP sessions; 0 when stateless)",
    registers: [registry],
    collect() {
      this.set(relay.sessionCount);
    },
  });
  return {
    observe(event) {
      if (event.errorCode === "ARTIFACT_STORE_UNAVAILABLE") storeErrors.inc();
      if (event.kind === "query") {
        queryDuration.observe({ outcome: event.errorCode ?? "ok" }, event.ms / 1000);
      }
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}

import { type BoundedMcp, createBoundedMcp, type Logger } from "@bounded-mcp/mcp-adapter";
import type { ProxyOptions } from "../options/load-options.js";

/**
 * The one adapter of the process (one store, key ring and parse cache for every session), from
 * the settings loadOptions resolved once. The store, S3 included, is built by the adapter from
 * those settings (its one path-style rule: `--s3-force-path-style`, else on with an endpoint).
 * Over HTTP the adapter serves many principals: each gets a share of the store and a number of
 * queries at once (`--quota-per-principal`, `--max-queries-per-principal`, with the
 * adapter's defaults for many); stdio serves one, as before.
 */
export async function createProxyAdapter(
  options: ProxyOptions,
  logger: Logger,
): Promise<BoundedMcp> {
  return createBoundedMcp({
    resolvedSettings: options.settings,
    logger,
    principals: options.listen.kind === "http" ? "many" : "one",
  });
}

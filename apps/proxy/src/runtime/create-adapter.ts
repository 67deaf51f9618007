import { type BoundedMcp, createBoundedMcp, type Logger } from "@bounded-mcp/mcp-adapter";
import type { ProxyOptions } from "../options/load-options.js";

/**
 * The one adapter of the process (one store, key ring and parse cache for every session), from
 * the settings loadOptions resolved once. The store, S3 included, is built by the adapter from
 * those settings (its one path-style rule: `--s3-force-path-style`, else on with an endpoint).
 */
export async function createProxyAdapter(
  options: ProxyOptions,
  logger: Logger,
): Promise<BoundedMcp> {
  return createBoundedMcp({ resolvedSettings: options.settings, logger });
}

import type { Logger } from "@bounded-mcp/mcp-adapter";
import { chooseDefaultStdioStore, type UserCacheLocation } from "@bounded-mcp/relay";
import type { ProxyOptions } from "../options/load-options.js";
import { UsageError } from "../options/usage-error.js";

/**
 * The store a stdio proxy runs on when the user chose none: the relay's default stdio store (the
 * fs store in the user's cache folder with its key file), so the artifacts a client was told
 * about outlive this process. HTTP keeps the memory default: a server deployment chooses its
 * store (and replicas share S3), and a service account's cache folder is rarely where its
 * operator looks. A folder that cannot be created is a UsageError naming it and `--store memory`.
 */
export function chooseStdioStore(
  options: ProxyOptions,
  logger: Logger,
  location: UserCacheLocation = {},
): { options: ProxyOptions } {
  if (options.listen.kind !== "stdio") return { options };
  try {
    const chosen = chooseDefaultStdioStore(options, logger, location);
    return { options: { ...options, settings: chosen.settings, warnings: chosen.warnings } };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

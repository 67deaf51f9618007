import type { Logger } from "@bounded-mcp/mcp-adapter";
import { openUserCacheStore, type UserCacheLocation } from "@bounded-mcp/relay";
import type { ProxyOptions } from "../options/load-options.js";
import { UsageError } from "../options/usage-error.js";

/**
 * The store a stdio proxy runs on when the user chose none: the fs store in the user's cache
 * folder (`$XDG_CACHE_HOME/bounded-mcp`, ...) with its key file unless BOUNDED_MCP_KEYS is set,
 * so the artifacts a client was told about outlive this process for their TTL (clients restart
 * servers, and some run one process per call). `--store memory` keeps them in this process only.
 * HTTP keeps the memory default: a server deployment chooses its store (and replicas share S3),
 * and a service account's cache folder is rarely where its operator looks. Logs where the
 * artifacts go; a folder that cannot be created is a UsageError naming it and `--store memory`.
 */
export function chooseStdioStore(
  options: ProxyOptions,
  logger: Logger,
  location: UserCacheLocation = {},
): { options: ProxyOptions } {
  if (options.listen.kind !== "stdio" || options.storeChosen) return { options };
  if (options.settings.store.kind !== "memory") return { options };
  let opened: ReturnType<typeof openUserCacheStore>;
  try {
    opened = openUserCacheStore(options.settings, location);
  } catch (error) {
    throw new UsageError(
      `the default artifact folder cannot be used (${(error as Error).message}): set XDG_CACHE_HOME, --store-dir, or --store memory`,
    );
  }
  logger.info(
    "artifacts are kept in the user's cache folder (--store memory keeps them in this process only)",
    {
      storeDir: opened.storeDir,
      ...(opened.keyFile === null ? {} : { keyFile: opened.keyFile }),
    },
  );
  const warnings =
    opened.keyFile === null
      ? options.warnings
      : options.warnings.filter((warning) => warning.setting !== "BOUNDED_MCP_KEYS");
  return { options: { ...options, settings: opened.settings, warnings } };
}

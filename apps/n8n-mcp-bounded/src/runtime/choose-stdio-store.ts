import type { AdapterSettings, Logger } from "@bounded-mcp/mcp-adapter";
import type { SettingsWarning } from "@bounded-mcp/mcp-adapter/settings";
import { openUserCacheStore, type UserCacheLocation } from "@bounded-mcp/relay";

/** The settings and warnings the CLI runs with once its store is chosen. */
export interface ChosenStore {
  settings: AdapterSettings;
  warnings: SettingsWarning[];
}

/**
 * The CLI's store when the user chose none (no `--store`, `BOUNDED_MCP_STORE`, folder or
 * bucket): the fs store in the user's cache folder (`$XDG_CACHE_HOME/bounded-mcp`, ...) with
 * its key file unless a key ring is configured, so artifacts outlive the process for their TTL
 * (MCP clients restart their servers). The random-key warning is dropped when the key file is
 * used. `--store memory` keeps today's in-process store. Throws (with the folder's path) when
 * the folder cannot be used.
 */
export function chooseStdioStore(
  run: { settings: AdapterSettings; warnings: SettingsWarning[]; storeChosen: boolean },
  logger: Logger,
  location: UserCacheLocation = {},
): ChosenStore {
  if (run.storeChosen || run.settings.store.kind !== "memory") {
    return { settings: run.settings, warnings: run.warnings };
  }
  const opened = openUserCacheStore(run.settings, location);
  logger.info(
    "artifacts are kept in the user's cache folder (--store memory keeps them in this process only)",
    { storeDir: opened.storeDir, ...(opened.keyFile === null ? {} : { keyFile: opened.keyFile }) },
  );
  const warnings =
    opened.keyFile === null
      ? run.warnings
      : run.warnings.filter((warning) => warning.setting !== "BOUNDED_MCP_KEYS");
  return { settings: opened.settings, warnings };
}

import type { AdapterSettings, Logger } from "@bounded-mcp/mcp-adapter";
import type { SettingsWarning } from "@bounded-mcp/mcp-adapter/settings";
import { openUserCacheStore, type UserCacheLocation } from "./user-cache-store.js";

/** The settings and warnings a stdio CLI runs with once its store is chosen. */
export interface ChosenStore {
  settings: AdapterSettings;
  warnings: SettingsWarning[];
}

/**
 * A stdio CLI's store when the user chose none (no `--store`, `BOUNDED_MCP_STORE`, folder or
 * bucket): the fs store in the user's cache folder (`$XDG_CACHE_HOME/bounded-mcp`, ...) with its
 * key file unless a key ring is configured, so artifacts outlive the process for their TTL (MCP
 * clients restart their servers; some run one process per call). Logs where the artifacts go and
 * drops the random-key warning when the key file is used. `--store memory` keeps the in-process
 * store. Throws an Error whose message says what to set when the folder cannot be used; each app
 * words and exits on it its own way.
 */
export function chooseDefaultStdioStore(
  run: { settings: AdapterSettings; warnings: SettingsWarning[]; storeChosen: boolean },
  logger: Logger,
  location: UserCacheLocation = {},
): ChosenStore {
  if (run.storeChosen || run.settings.store.kind !== "memory") {
    return { settings: run.settings, warnings: run.warnings };
  }
  let opened: ReturnType<typeof openUserCacheStore>;
  try {
    opened = openUserCacheStore(run.settings, location);
  } catch (error) {
    throw new Error(
      `the default artifact folder cannot be used (${(error as Error).message}): set XDG_CACHE_HOME, --store-dir, or --store memory`,
      { cause: error },
    );
  }
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

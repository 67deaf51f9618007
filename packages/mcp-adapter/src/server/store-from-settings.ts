import {
  type ArtifactStore,
  createMemoryStore,
  DEFAULT_MEMORY_MAX_BYTES,
} from "@bounded-mcp/stores";
import type { AdapterSettings } from "../config/resolve-settings.js";
import { type Logger, SILENT_LOGGER } from "../logging/logger.js";

/**
 * A store whose backend is loaded on first use. The fs and S3 backends live behind subpath
 * exports (the S3 SDK is an optional peer), so they are imported only when settings ask for
 * them; every method waits for the import.
 */
function createDeferredStore(
  name: string,
  capabilities: ArtifactStore["capabilities"],
  load: () => Promise<ArtifactStore>,
): ArtifactStore {
  let loaded: Promise<ArtifactStore> | undefined;
  const store = () => {
    loaded ??= load();
    return loaded;
  };
  return {
    name,
    capabilities,
    put: async (meta, body, options) => (await store()).put(meta, body, options),
    get: async (id) => (await store()).get(id),
    getStream: async (id) => (await store()).getStream(id),
    head: async (id) => (await store()).head(id),
    delete: async (id) => (await store()).delete(id),
    sweep: async (now) => (await store()).sweep(now),
    usage: async () => (await store()).usage(),
    dispose: async () => {
      if (loaded !== undefined) await (await loaded).dispose();
    },
  };
}

/**
 * The artifact store the settings describe: memory (bytes capped by quotaBytes, or at least
 * twice artifactMaxBytes), a directory, or an S3 bucket. This is the one place a store is built
 * from settings (both apps go through it): the S3 store uses path-style URLs exactly as
 * `settings.store.forcePathStyle` says (the s3ForcePathStyle setting, else on when an endpoint
 * is set), and takes credentials and checksum modes from the AWS SDK's own environment.
 */
export function createStoreFromSettings(
  settings: AdapterSettings,
  clock: () => number,
  logger: Logger = SILENT_LOGGER,
): ArtifactStore {
  const quota = settings.quotaBytes ?? undefined;
  const store = settings.store;
  if (store.kind === "fs") {
    return createDeferredStore("fs", { persistent: true, shared: true, quota: true }, async () => {
      const { createFsStore } = await import("@bounded-mcp/stores/fs");
      return createFsStore({
        dir: store.dir,
        ...(quota === undefined ? {} : { quotaBytes: quota }),
        clock,
      });
    });
  }
  if (store.kind === "s3") {
    return createDeferredStore("s3", { persistent: true, shared: true, quota: false }, async () => {
      const { createS3Store } = await import("@bounded-mcp/stores/s3");
      return createS3Store({
        bucket: store.bucket,
        ...(store.prefix === null ? {} : { prefix: store.prefix }),
        ...(store.endpoint === null ? {} : { endpoint: store.endpoint }),
        ...(store.region === null ? {} : { region: store.region }),
        forcePathStyle: store.forcePathStyle,
        clock,
        logger,
      });
    });
  }
  const maxBytes =
    quota ?? Math.max(DEFAULT_MEMORY_MAX_BYTES, 2 * settings.limits.artifactMaxBytes);
  return createMemoryStore({ maxBytes, clock });
}

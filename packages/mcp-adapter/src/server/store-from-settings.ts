import {
  type ArtifactStore,
  canStage,
  createEncryptedStore,
  createMemoryStore,
  DEFAULT_MEMORY_MAX_BYTES,
  deriveAtRestKeys,
  type StagedBody,
} from "@bounded-mcp/stores";
import { writeOnHashingThread } from "../bounding/hash-off-thread.js";
import type { AdapterSettings } from "../config/resolve-settings.js";
import { type Logger, SILENT_LOGGER } from "../logging/logger.js";

/**
 * A store whose backend is loaded on first use. The fs and S3 backends live behind subpath
 * exports (the S3 SDK is an optional peer), so they are imported only when settings ask for
 * them; every method waits for the import. A backend with the staging capability is staged
 * through: once it is loaded, at once (the fs store then starts writing the body before the
 * bounder parses it), before that, when the import settles (the handle's commit and discard wait
 * for it). `preload` starts the import when the event loop is next free instead of on first use
 * (fs: so the first oversized result is written while it is parsed, not after).
 */
function createDeferredStore(
  name: string,
  capabilities: ArtifactStore["capabilities"],
  load: () => Promise<ArtifactStore>,
  preload = false,
): ArtifactStore {
  let loaded: Promise<ArtifactStore> | undefined;
  let backend: ArtifactStore | undefined;
  const store = () => {
    loaded ??= load().then((ready) => {
      backend = ready;
      return ready;
    });
    return loaded;
  };
  let disposed = false;
  if (preload) setImmediate(() => disposed || store().catch(() => undefined));
  const stage = (body: Uint8Array): StagedBody => {
    if (backend !== undefined && canStage(backend)) return backend.stage(body);
    const staged = store().then((backend) => {
      if (!canStage(backend)) throw new Error(`the ${name} store cannot stage`);
      return backend.stage(body);
    });
    staged.catch(() => undefined);
    return {
      commit: async (meta, options) => (await staged).commit(meta, options),
      discard: async () => (await staged.catch(() => null))?.discard(),
    };
  };
  return {
    name,
    capabilities,
    put: async (meta, body) => (await store()).put(meta, body),
    get: async (id) => (await store()).get(id),
    head: async (id) => (await store()).head(id),
    delete: async (id) => (await store()).delete(id),
    sweep: async (now) => (await store()).sweep(now),
    dispose: async () => {
      disposed = true;
      if (loaded === undefined) return;
      // A preloaded backend that failed to load was never used: nothing to dispose.
      const used = await (preload ? loaded.catch(() => undefined) : loaded);
      await used?.dispose();
    },
    ...(capabilities.staging ? { stage } : {}),
  };
}

/**
 * Who calls the adapter: one principal (stdio: one client) or many (an HTTP server with several
 * principals). It only chooses the defaults of the per-principal settings.
 */
export type Principals = "one" | "many";

/** The default share of one principal: the whole cap for one, a quarter of it for many. */
export function defaultShareBytes(capBytes: number, principals: Principals): number | undefined {
  return principals === "one" ? undefined : Math.max(1, Math.floor(capBytes / 4));
}

/** The default of maxQueriesPerPrincipal: no limit for one principal, 4 for many. */
export function defaultMaxQueriesPerPrincipal(principals: Principals): number | null {
  return principals === "one" ? null : 4;
}

/**
 * `backend` sealed with keys derived from the settings' key ring when `encryptAtRest` is on
 * (see the stores README, "Encryption at rest"); what cannot be opened is logged and reads as
 * unknown.
 */
function sealedWhenAsked(
  settings: AdapterSettings,
  logger: Logger,
  backend: ArtifactStore,
): ArtifactStore {
  if (!settings.encryptAtRest) return backend;
  return createEncryptedStore({ store: backend, keys: deriveAtRestKeys(settings.keyRing), logger });
}

/**
 * The artifact store the settings describe: memory (bytes capped by quotaBytes, or at least
 * twice artifactMaxBytes), a directory, or an S3 bucket. This is the one place a store is built
 * from settings (both apps go through it): the S3 store uses path-style URLs exactly as
 * `settings.store.forcePathStyle` says (the s3ForcePathStyle setting, else on when an endpoint
 * is set) and the s3Timeout deadline, and takes credentials and checksum modes from the AWS SDK's
 * own environment. Memory and fs get a per-principal share (quotaPerPrincipal, else the
 * default for `principals`: none for one, a quarter of the cap for many). With `encryptAtRest`
 * the fs and S3 stores are wrapped in createEncryptedStore (memory is not: its artifacts never
 * leave the process).
 */
export function createStoreFromSettings(
  settings: AdapterSettings,
  clock: () => number,
  logger: Logger = SILENT_LOGGER,
  principals: Principals = "one",
): ArtifactStore {
  const quota = settings.quotaBytes ?? undefined;
  const store = settings.store;
  const shareOf = (capBytes: number) => {
    const share = settings.quotaPerPrincipal ?? defaultShareBytes(capBytes, principals);
    return share === undefined ? {} : { shareBytes: Math.min(share, capBytes) };
  };
  if (store.kind === "fs") {
    const capabilities = { persistent: true, shared: true, quota: true, staging: true };
    return createDeferredStore(
      "fs",
      capabilities,
      async () => {
        const { createFsStore, DEFAULT_FS_QUOTA_BYTES } = await import("@bounded-mcp/stores/fs");
        const backend = createFsStore({
          dir: store.dir,
          ...(quota === undefined ? {} : { quotaBytes: quota }),
          ...shareOf(quota ?? DEFAULT_FS_QUOTA_BYTES),
          clock,
          // The bounder's hashing thread writes a large staged body it hashes anyway: one
          // helper thread per payload, not two.
          writeLargeBody: writeOnHashingThread,
        });
        return sealedWhenAsked(settings, logger, backend);
      },
      true,
    );
  }
  if (store.kind === "s3") {
    const capabilities = { persistent: true, shared: true, quota: false, staging: false };
    return createDeferredStore("s3", capabilities, async () => {
      const { createS3Store } = await import("@bounded-mcp/stores/s3");
      const backend = createS3Store({
        bucket: store.bucket,
        ...(store.prefix === null ? {} : { prefix: store.prefix }),
        ...(store.endpoint === null ? {} : { endpoint: store.endpoint }),
        ...(store.region === null ? {} : { region: store.region }),
        forcePathStyle: store.forcePathStyle,
        timeoutMs: store.timeoutMs,
        clock,
        logger,
      });
      return sealedWhenAsked(settings, logger, backend);
    });
  }
  const maxBytes =
    quota ?? Math.max(DEFAULT_MEMORY_MAX_BYTES, 2 * settings.limits.artifactMaxBytes);
  return createMemoryStore({ maxBytes, ...shareOf(maxBytes), clock });
}

import { assertValidArtifactId } from "../artifact-id.js";
import { canStage, isExpiredArtifact } from "../capabilities.js";
import { SILENT_STORE_LOGGER, type StoreLogger } from "../shared/logger.js";
import { checkMetaForBody, checkPut, parseArtifactMeta, sha256Hex } from "../shared/meta.js";
import type {
  ArtifactMeta,
  ArtifactStore,
  ExpiredArtifact,
  StagedBody,
  StagingArtifactStore,
  StoredArtifact,
} from "../types.js";
import type { AtRestKeys } from "./at-rest-keys.js";
import {
  type OpenFailure,
  openBody,
  openMeta,
  SEALED_OVERHEAD_BYTES,
  sealBody,
  sealMeta,
} from "./sealed-artifact.js";

/** Options of `createEncryptedStore`. */
export interface EncryptedStoreOptions {
  /** The store that keeps the sealed bytes (memory, fs, s3 or your own). Disposed with the wrapper. */
  store: ArtifactStore;
  /** The at-rest keys (deriveAtRestKeys of the key ring): the first seals, all open. */
  keys: AtRestKeys;
  /** Gets a warning for every artifact that cannot be opened (no key, damaged, not sealed). */
  logger?: StoreLogger;
}

const FAILURE_TEXT: Readonly<Record<OpenFailure, string>> = {
  not_sealed: "it was stored without encryption",
  unknown_key: "no listed key has its kid (the key was retired or belongs to another ring)",
  damaged: "it does not authenticate (changed bytes, a moved object or another key)",
};

/**
 * An ArtifactStore that encrypts what it puts into another store (AES-256-GCM, see the README's
 * "Encryption at rest"): the payload and the metadata that comes from it (responseRoot,
 * primaryPaths, sourceTruncated, the payload's size, sha256 and media type) are sealed; the id,
 * scope hash, times and the sealed body's size stay readable, so sweep, quota and expiry work in
 * the backend without keys. An artifact that cannot be opened (a retired key, a changed byte,
 * one written without encryption) reads as unknown (null) and is logged, never returned as
 * garbage. It keeps the backend's name and capabilities (staging included: the body is sealed
 * when staged, so an fs write still overlaps the caller's parse). Limits: each put or stage
 * holds the sealed copy beside the caller's body (one extra payload of memory) and each get
 * holds the sealed bytes and the opened ones; a backend quota counts sealed bytes (the payload
 * plus SEALED_OVERHEAD_BYTES, 49); sweep reports payload bytes freed.
 */
export function createEncryptedStore(options: EncryptedStoreOptions): ArtifactStore {
  const { store: inner, keys } = options;
  const logger = options.logger ?? SILENT_STORE_LOGGER;
  const name = inner.name;

  const refuse = (id: string, reason: OpenFailure): null => {
    logger.warn(
      `[stores:${name}] an encrypted artifact reads as unknown: ${FAILURE_TEXT[reason]}`,
      {
        artifactId: id,
        reason,
      },
    );
    return null;
  };

  const openedMeta = (clear: ArtifactMeta): ArtifactMeta | null => {
    const opened = openMeta(keys, clear);
    if (!opened.ok) return refuse(clear.id, opened.reason);
    const meta = parseArtifactMeta(opened.value);
    return meta ?? refuse(clear.id, "damaged");
  };

  const clearMeta = (meta: ArtifactMeta, sealed: Buffer): ArtifactMeta =>
    sealMeta(keys, meta, { byteLength: sealed.byteLength, sha256: sha256Hex(sealed) });

  const wrapper: ArtifactStore = {
    name,
    capabilities: { ...inner.capabilities },
    async put(meta, body) {
      const checked = checkPut(name, meta, body);
      const sealed = sealBody(keys, body);
      await inner.put(clearMeta(checked, sealed), sealed);
    },
    async get(id): Promise<StoredArtifact | ExpiredArtifact | null> {
      const found = await inner.get(id);
      if (found === null || isExpiredArtifact(found)) return found;
      const meta = openedMeta(found.meta);
      if (meta === null) return null;
      const opened = openBody(keys, found.body);
      if (!opened.ok) return refuse(id, opened.reason);
      const body = opened.value;
      if (body.byteLength !== meta.byteLength || sha256Hex(body) !== meta.sha256) {
        return refuse(id, "damaged");
      }
      return { meta, body };
    },
    async head(id) {
      const found = await inner.head(id);
      if (found === null || isExpiredArtifact(found)) return found;
      return openedMeta(found);
    },
    delete: (id) => inner.delete(id),
    async sweep(now) {
      // The backend freed sealed bytes; report payload bytes, as put's byteLength counts them.
      const { removed, freedBytes } = await inner.sweep(now);
      return { removed, freedBytes: Math.max(0, freedBytes - removed * SEALED_OVERHEAD_BYTES) };
    },
    dispose: () => inner.dispose(),
  };
  if (!canStage(inner)) return wrapper;
  const stage = (body: Uint8Array): StagedBody => {
    const sealed = sealBody(keys, body);
    const staged = inner.stage(sealed);
    return {
      async commit(meta, commitOptions) {
        let checked: ArtifactMeta;
        try {
          assertValidArtifactId(meta.id, name, "put");
          checked = checkMetaForBody(meta, body, name, commitOptions?.sha256FromBody !== true);
        } catch (error) {
          await staged.discard();
          throw error;
        }
        await staged.commit(clearMeta(checked, sealed), { sha256FromBody: true });
      },
      discard: () => staged.discard(),
    };
  };
  const staging: StagingArtifactStore = { ...wrapper, stage };
  return staging;
}

export {
  createFsStore,
  DEFAULT_FS_QUOTA_BYTES,
  DEFAULT_FS_SWEEP_INTERVAL_MS,
  type FsStoreOptions,
} from "./fs-store.js";

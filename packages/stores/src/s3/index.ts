export { S3_USER_METADATA_LIMIT_BYTES } from "./object-metadata.js";
export {
  createS3Store,
  DEFAULT_S3_PREFIX,
  type S3StoreOptions,
} from "./s3-store.js";

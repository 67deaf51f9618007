import {
  type BoundedMcp,
  createBoundedMcp,
  type Logger,
  resolveSettings,
  SettingsError,
} from "@bounded-mcp/mcp-adapter";
import type { ArtifactStore } from "@bounded-mcp/stores";
import type { ProxyOptions } from "../options/load-options.js";
import { UsageError } from "../options/usage-error.js";

/**
 * The S3 store built here rather than by the adapter, because the adapter's settings have no
 * path-style switch (`--s3-force-path-style`, which MinIO and s3rver need). Credentials and
 * checksum modes come from the AWS SDK's own environment (AWS_ACCESS_KEY_ID,
 * AWS_REQUEST_CHECKSUM_CALCULATION, ...). Other kinds give undefined: the adapter builds them.
 */
async function createStore(
  options: ProxyOptions,
  logger: Logger,
): Promise<ArtifactStore | undefined> {
  const store = resolveSettings({ environment: options.adapterEnvironment }).store;
  if (store.kind !== "s3") return undefined;
  // Loaded only for --store s3: the AWS SDK is large and slows every other start-up.
  const { createS3Store } = await import("@bounded-mcp/stores/s3");
  return createS3Store({
    bucket: store.bucket,
    prefix: store.prefix,
    ...(store.endpoint === null ? {} : { endpoint: store.endpoint }),
    ...(store.region === null ? {} : { region: store.region }),
    forcePathStyle: options.s3ForcePathStyle,
    logger,
  });
}

/**
 * The one adapter of the process (one store, key ring and parse cache for every session). Invalid
 * adapter settings become a UsageError with one line, so the CLI exits with code 2.
 */
export async function createProxyAdapter(
  options: ProxyOptions,
  logger: Logger,
): Promise<BoundedMcp> {
  try {
    const store = await createStore(options, logger);
    return createBoundedMcp({
      environment: options.adapterEnvironment,
      logger,
      ...(store === undefined ? {} : { artifactStore: store }),
    });
  } catch (error) {
    if (SettingsError.isInstance(error)) {
      throw new UsageError(error.message.replace(/\s*\n\s*/g, "; "));
    }
    throw error;
  }
}

import type { StoreSettings } from "@bounded-mcp/mcp-adapter/settings";

/** How long the start-up HeadBucket may take before the proxy gives up. */
export const S3_CHECK_DEADLINE_MS = 5_000;

type S3Settings = Extract<StoreSettings, { kind: "s3" }>;

/**
 * Checks at start that the S3 store's bucket answers (one HeadBucket with the store's endpoint,
 * region and path style, credentials from the AWS SDK's usual sources), so a wrong endpoint,
 * bucket or credentials stop the proxy with one clear line instead of failing the first
 * oversized call. Throws an Error naming the bucket, the endpoint and the reason; the CLI exits 1.
 * Limits: HeadBucket needs s3:ListBucket; it proves the bucket answers, not that writes succeed.
 */
export async function checkS3Bucket(
  store: S3Settings,
  deadlineMs: number = S3_CHECK_DEADLINE_MS,
): Promise<void> {
  // The SDK warns on every start under Node < 22 about its releases of 2027; this proxy pins
  // its SDK and supports Node 20.19, so the warning is only noise (a user's own value wins).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const { HeadBucketCommand, S3Client } = await import("@aws-sdk/client-s3");
  const client = new S3Client({
    ...(store.endpoint === null ? {} : { endpoint: store.endpoint }),
    ...(store.region === null ? {} : { region: store.region }),
    forcePathStyle: store.forcePathStyle,
    maxAttempts: 1,
  });
  const where = `--s3-bucket ${store.bucket} at ${store.endpoint ?? "AWS"}`;
  try {
    await client.send(new HeadBucketCommand({ Bucket: store.bucket }), {
      abortSignal: AbortSignal.timeout(deadlineMs),
    });
  } catch (error) {
    const failure = error as Error & { $metadata?: { httpStatusCode?: number } };
    const status = failure.$metadata?.httpStatusCode;
    const reason =
      failure.name === "TimeoutError" || failure.name === "AbortError"
        ? `no answer within ${deadlineMs} ms`
        : status === 404
          ? "no such bucket"
          : status === 403
            ? "access denied (check the credentials)"
            : `${failure.name}: ${failure.message}`;
    throw new Error(`the S3 store cannot be reached (${where}): ${reason}`);
  } finally {
    client.destroy();
  }
}

import { BoundedMcpError } from "@bounded-mcp/contract";

/**
 * Why a store call failed. `STORE_UNAVAILABLE`: the backend could not be reached or answered with
 * an error (the adapter maps it to ARTIFACT_STORE_UNAVAILABLE); `INVALID_ARTIFACT_ID`: the id does
 * not match the contract's ARTIFACT_ID_PATTERN (a traversal-looking or oversized id never reaches a
 * backend); `QUOTA_EXCEEDED`: one body is larger than the store's byte cap even after pruning;
 * `INVALID_META`: the metadata passed to `put` disagrees with the body (byteLength, sha256, id).
 */
export type StoreErrorCode =
  | "STORE_UNAVAILABLE"
  | "INVALID_ARTIFACT_ID"
  | "QUOTA_EXCEEDED"
  | "INVALID_META";

/** What a StoreError is built from. */
export interface StoreErrorOptions {
  code: StoreErrorCode;
  /** The backend's name, e.g. "s3"; it prefixes the message as `[stores:s3]`. */
  store: string;
  /** The failed operation, e.g. "GetObject" or "put". */
  operation: string;
  /** Overrides the default message `[stores:<store>] <operation> failed`. */
  message?: string;
  /** QUOTA_EXCEEDED: the cap in bytes that refused the body (the store's, or one caller's share). */
  limit?: number;
  /** QUOTA_EXCEEDED: whether `limit` is one caller scope's share or the store's whole cap. */
  limitOf?: "share" | "store";
  cause?: unknown;
}

/**
 * A local failure of a store call: which backend, which operation, and the original error as
 * `cause`. The message reads `[stores:s3] GetObject failed`. Use `StoreError.isInstance` rather
 * than `instanceof` so two copies of this package (a bundled app and a dependency) still agree
 * (the marker of the contract's BoundedMcpError).
 */
export class StoreError extends BoundedMcpError<StoreErrorCode> {
  static override readonly kind = "@bounded-mcp/stores.StoreError";
  readonly store: string;
  readonly operation: string;
  /** QUOTA_EXCEEDED: the cap in bytes that refused the body; undefined for other codes. */
  readonly limit: number | undefined;
  /** QUOTA_EXCEEDED: whether `limit` is one caller scope's share or the store's whole cap. */
  readonly limitOf: "share" | "store" | undefined;

  constructor(options: StoreErrorOptions) {
    super(
      options.code,
      options.message ?? `[stores:${options.store}] ${options.operation} failed`,
      {
        cause: options.cause,
      },
    );
    this.store = options.store;
    this.operation = options.operation;
    this.limit = options.limit;
    this.limitOf = options.limitOf;
  }
}

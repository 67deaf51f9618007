import type { ErrorCode } from "./error-codes.js";

const CONTRACT_ERROR_MARKER = Symbol.for("@bounded-mcp/contract.ContractError");

/** What a ContractError carries: a §6 code, a corrective message, wire details and the cause. */
export interface ContractErrorOptions {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * A contract failure raised deep inside the query engine (a bad path, a forged cursor) and turned
 * into one error envelope at the top with `createErrorResult(error)`. It is a local class; what
 * crosses the wire is only its code, message and details. `isInstance` checks a global marker, so
 * it works across duplicated copies of this package (instanceof does not).
 */
export class ContractError extends Error {
  readonly [CONTRACT_ERROR_MARKER] = true;
  /** The §6 code the caller will see. */
  readonly code: ErrorCode;
  /** Wire details (see ERROR_CODES for each code's keys); echoed strings are cut at the top. */
  declare readonly details?: Record<string, unknown>;

  constructor(options: ContractErrorOptions);
  constructor(
    code: ErrorCode,
    message: string,
    details?: Record<string, unknown>,
    options?: { cause?: unknown },
  );
  constructor(
    first: ContractErrorOptions | ErrorCode,
    message?: string,
    details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    const input: ContractErrorOptions =
      typeof first === "string"
        ? { code: first, message: message ?? first, details, cause: options?.cause }
        : first;
    super(input.message, input.cause === undefined ? undefined : { cause: input.cause });
    this.name = "ContractError";
    this.code = input.code;
    if (input.details !== undefined) this.details = input.details;
  }

  /** True for a ContractError of any copy of this package. */
  static isInstance(value: unknown): value is ContractError {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as { [CONTRACT_ERROR_MARKER]?: unknown })[CONTRACT_ERROR_MARKER] === true
    );
  }
}

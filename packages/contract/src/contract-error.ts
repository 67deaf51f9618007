import { BoundedMcpError } from "./bounded-mcp-error.js";
import type { ErrorCode } from "./error-codes.js";

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
 * crosses the wire is only its code, message and details. Recognise it with
 * `ContractError.isInstance` (see BoundedMcpError): it works across duplicated copies of this
 * package, instanceof does not.
 */
export class ContractError extends BoundedMcpError<ErrorCode> {
  static override readonly kind = "@bounded-mcp/contract.ContractError";
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
    super(input.code, input.message, { cause: input.cause });
    if (input.details !== undefined) this.details = input.details;
  }
}

import { BoundedMcpError } from "@bounded-mcp/contract";

/**
 * A command-line, environment or config-file value the proxy cannot use. The CLI prints its
 * message as one line on stderr and exits with code 2. Recognise it with `UsageError.isInstance`
 * (see the contract's BoundedMcpError).
 */
export class UsageError extends BoundedMcpError<"USAGE"> {
  static override readonly kind = "@bounded-mcp/proxy.UsageError";

  constructor(message: string) {
    super("USAGE", message);
  }
}

/**
 * A command-line, environment or config-file value the proxy cannot use. The CLI prints its
 * message as one line on stderr and exits with code 2.
 */
export class UsageError extends Error {
  readonly code = "USAGE" as const;

  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

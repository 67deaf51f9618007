const SETTINGS_ERROR_MARKER = Symbol.for("bounded-mcp.mcp-adapter.SettingsError");

/** One problem found in the settings, with the sources it concerns. */
export interface SettingsIssue {
  /**
   * The settings concerned, named as the user gave them: `--inline-bytes`,
   * `BOUNDED_MCP_INLINE_BYTES`, `"inlineBytes" in /c.json`, `options.inlineBytes`; empty for a
   * command line that cannot be read at all.
   */
  names: string[];
  /** One line that starts with the source and its value: `--inline-bytes 40: must be at least 4096`. */
  message: string;
}

/**
 * The settings cannot be used: a flag is unknown, a value does not parse or breaks its bounds,
 * two environment names for one setting disagree, or values contradict each other
 * (previewBytes >= inlineBytes). Thrown once at start, with every problem in one message so an
 * operator fixes them in one go; the apps print `issues` as one line and exit 2. Secrets are
 * never echoed.
 */
export class SettingsError extends Error {
  readonly code = "INVALID_SETTINGS" as const;
  readonly issues: readonly SettingsIssue[];
  readonly [SETTINGS_ERROR_MARKER] = true;

  constructor(issues: readonly SettingsIssue[], options?: { cause?: unknown }) {
    super(formatIssues(issues), options);
    this.name = "SettingsError";
    this.issues = issues;
  }

  /** True for a SettingsError from any copy of this package (instanceof fails across copies). */
  static isInstance(value: unknown): value is SettingsError {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as Record<symbol, unknown>)[SETTINGS_ERROR_MARKER] === true
    );
  }
}

function formatIssues(issues: readonly SettingsIssue[]): string {
  const count = issues.length === 1 ? "1 problem" : `${issues.length} problems`;
  return `bounded-mcp settings refused (${count}): ${issues.map((issue) => issue.message).join("; ")}`;
}

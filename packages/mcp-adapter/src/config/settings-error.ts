const SETTINGS_ERROR_MARKER = Symbol.for("bounded-mcp.mcp-adapter.SettingsError");

/** One problem found in the settings, with the variables or options it concerns. */
export interface SettingsIssue {
  /** Environment variable names or `options.<path>` labels, in the order they were checked. */
  names: string[];
  message: string;
}

/**
 * The settings cannot be used: a value does not parse, two environment names for one setting
 * disagree, or values contradict each other (previewBytes >= inlineBytes). Thrown once at start,
 * with every problem in one message so an operator fixes them in one go. Secrets are never
 * echoed.
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

import { BoundedMcpError } from "@bounded-mcp/contract";

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
export class SettingsError extends BoundedMcpError<"INVALID_SETTINGS"> {
  static override readonly kind = "@bounded-mcp/mcp-adapter.SettingsError";
  readonly issues: readonly SettingsIssue[];

  constructor(issues: readonly SettingsIssue[], options?: { cause?: unknown }) {
    super("INVALID_SETTINGS", formatIssues(issues), options);
    this.issues = issues;
  }
}

function formatIssues(issues: readonly SettingsIssue[]): string {
  const count = issues.length === 1 ? "1 problem" : `${issues.length} problems`;
  return `bounded-mcp settings refused (${count}): ${issues.map((issue) => issue.message).join("; ")}`;
}

import type { Setting } from "./setting.js";

/** Where a value came from; messages name it the way the user wrote it. */
export type SettingSource =
  | { kind: "options" }
  | { kind: "flag"; negated: boolean }
  | { kind: "environment"; name: string }
  | { kind: "file"; path: string }
  | { kind: "default" };

/** Text as given, quoted only when it would not read as one word. */
function shownText(text: string): string {
  return /^[\w.:/@+,=*-]+$/.test(text) ? text : JSON.stringify(text);
}

/** The setting's name on the layer of `source`: `--inline-bytes`, `BOUNDED_MCP_INLINE_BYTES`. */
export function nameOn(source: SettingSource, name: string, setting: Setting): string {
  if (source.kind === "options") return `options.${name}`;
  if (source.kind === "flag") return `--${setting.flag}`;
  if (source.kind === "environment") return setting.env;
  if (source.kind === "file") return `"${name}"`;
  return name;
}

/** The label of a given value, without the value: `--ttl`, `"ttl" in /c.json`. */
export function labelOf(source: SettingSource, name: string, setting: Setting): string {
  if (source.kind === "flag" && source.negated) return `--no-${setting.flag}`;
  if (source.kind === "file") return `"${name}" in ${source.path}`;
  if (source.kind === "environment") return source.name;
  return nameOn(source, name, setting);
}

/**
 * A given value as the user wrote it: `--inline-bytes 40`, `BOUNDED_MCP_INLINE_BYTES=40`,
 * `"inlineBytes": 40 in /c.json`, `options.inlineBytes=40`. Secrets and lists show no value.
 */
export function describeGiven(
  source: SettingSource,
  name: string,
  setting: Setting,
  raw: unknown,
): string {
  const label = labelOf(source, name, setting);
  if (setting.secret || source.kind === "default") return label;
  if (source.kind === "flag") {
    return typeof raw === "string" ? `${label} ${shownText(raw)}` : label;
  }
  if (source.kind === "environment") return `${label}=${shownText(String(raw))}`;
  if (source.kind === "file") return `"${name}": ${JSON.stringify(raw)} in ${source.path}`;
  return `${label}=${typeof raw === "string" ? shownText(raw) : JSON.stringify(raw)}`;
}

/** A setting left at its default, named on the layer the user used: `--inline-bytes (default 32KiB)`. */
export function describeDefault(style: SettingSource, name: string, setting: Setting): string {
  const label = nameOn(style, name, setting);
  return setting.default === null ? label : `${label} (default ${setting.show(setting.default)})`;
}

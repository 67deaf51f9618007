import type { Setting, SettingsTable } from "./setting.js";

const LINE_WIDTH = 100;

/** How formatSettingsHelp lays out the rows. */
export interface SettingsHelpOptions {
  /** More environment names per setting, listed after the row's own (an app's older names). */
  aliases?: Readonly<Record<string, readonly string[]>>;
  /** Show each setting's config-file key (apps that read a config file). Default true. */
  fileKeys?: boolean;
  /** Width of the flag column. Default 34. */
  width?: number;
}

/** The flag as `--help` shows it: `--inline-bytes <bytes>`, `--[no-]resource-links`. */
export function flagUsage(setting: Setting): string {
  if (setting.argument === null) return `--[no-]${setting.flag}`;
  return `--${setting.flag} ${setting.argument}`;
}

/** Items joined with `; `, broken into lines of at most LINE_WIDTH characters where they allow. */
function wrap(first: string, items: readonly string[], pad: string): string[] {
  const lines: string[] = [];
  let line = first;
  for (const [index, item] of items.entries()) {
    const piece = index < items.length - 1 ? `${item};` : item;
    const fresh = line === first || line === pad;
    if (!fresh && line.length + 1 + piece.length > LINE_WIDTH) {
      lines.push(line);
      line = pad;
    }
    line += line === first || line === pad ? piece : ` ${piece}`;
  }
  lines.push(line);
  return lines;
}

function defaultOf(setting: Setting): string {
  if (setting.defaultText !== null) return setting.defaultText;
  return setting.default === null ? "none" : setting.show(setting.default);
}

/**
 * The `--help` lines of every setting of `table`: the flag and help line, then the environment
 * variable(s), the config-file key and the default, then the limits and the relations that name
 * it (`inlineBytes >= 4096; previewBytes < inlineBytes`), so nothing about a setting is only in
 * the code.
 */
export function formatSettingsHelp(
  table: SettingsTable,
  options: SettingsHelpOptions = {},
): string[] {
  const width = options.width ?? 34;
  const pad = " ".repeat(width + 2);
  const rules = Object.values(table).flatMap((setting) => setting.relations);
  const lines: string[] = [];
  for (const [name, setting] of Object.entries(table)) {
    const usage = flagUsage(setting);
    const head = usage.length < width ? usage.padEnd(width) : `${usage}\n${pad.slice(2)}`;
    const repeatable = setting.multiple ? " (repeatable)" : "";
    lines.push(`  ${head}${setting.help}${repeatable}`);
    const variables = [setting.env, ...(options.aliases?.[name] ?? [])].join(" or ");
    const key = options.fileKeys === false ? "" : `, key ${name}`;
    lines.push(`${pad}env ${variables}${key}, default ${defaultOf(setting)}`);
    const limits = [
      ...setting.limits.map((limit) => `${name} ${limit}`),
      ...rules.filter((rule) => rule.settings.includes(name)).map((rule) => rule.rule),
    ];
    if (limits.length > 0) lines.push(...wrap(`${pad}limits: `, limits, pad));
  }
  return lines;
}

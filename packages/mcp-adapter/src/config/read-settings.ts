import type { Setting, SettingsTable, SettingValues } from "./setting.js";
import {
  describeDefault,
  describeGiven,
  labelOf,
  nameOn,
  type SettingSource,
} from "./setting-source.js";
import type { SettingsIssue } from "./settings-error.js";

/** Environment variables by name; unset and empty (or blank) values count as unset. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The layers settings are read from, highest first: values given in code, the command line, the
 * environment, a config file; a setting none of them gives keeps its default.
 */
export interface SettingsLayers {
  /** Values given in code, by setting name. Names that are no setting are refused. */
  options?: Readonly<Record<string, unknown>>;
  /** The command line's values by setting name (`readCommandLine(...).values`). */
  flags?: Readonly<Record<string, unknown>>;
  environment?: Environment;
  /** More environment names per setting (an app's own older names); the ones set must agree. */
  aliases?: Readonly<Record<string, readonly string[]>>;
  /** A config file's values by setting name (JSON values: numbers, booleans, text, arrays). */
  file?: { path: string; values: Readonly<Record<string, unknown>> };
}

/** Every value of a table, where each came from, and every problem found. */
export interface SettingsReading<Table extends SettingsTable> {
  values: SettingValues<Table>;
  sources: { [Name in keyof Table]: SettingSource };
  issues: SettingsIssue[];
}

interface Picked {
  source: SettingSource;
  raw: unknown;
  /** Set when the value was already parsed (the environment's names are parsed to compare them). */
  parsed?: { value: unknown };
}

function isBlank(text: string | undefined): text is undefined {
  return text === undefined || text.trim() === "";
}

/** Reads one setting from the environment: its own name and its aliases, which must agree. */
function fromEnvironment(
  name: string,
  setting: Setting,
  layers: SettingsLayers,
  issues: SettingsIssue[],
): Picked | "failed" | undefined {
  const environment = layers.environment ?? {};
  const found: { variable: string; text: string; value: unknown }[] = [];
  let failed = false;
  for (const variable of [setting.env, ...(layers.aliases?.[name] ?? [])]) {
    const text = environment[variable];
    if (isBlank(text)) continue;
    const source: SettingSource = { kind: "environment", name: variable };
    const parsed = setting.schema.safeParse(text);
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? "is not valid";
      issues.push({
        names: [variable],
        message: `${describeGiven(source, name, setting, text)}: ${message}`,
      });
      failed = true;
      continue;
    }
    found.push({ variable, text: text.trim(), value: parsed.data });
  }
  if (failed) return "failed";
  const first = found[0];
  if (first === undefined) return undefined;
  const same = (entry: (typeof found)[number]) =>
    setting.secret
      ? entry.text === first.text
      : JSON.stringify(entry.value) === JSON.stringify(first.value);
  if (!found.every(same)) {
    const listed = found.map((entry) =>
      setting.secret ? entry.variable : `${entry.variable}=${entry.text}`,
    );
    issues.push({
      names: found.map((entry) => entry.variable),
      message: `${listed.join(" and ")} disagree: set only one of them`,
    });
    return "failed";
  }
  return {
    source: { kind: "environment", name: first.variable },
    raw: first.text,
    parsed: { value: first.value },
  };
}

function pick(
  name: string,
  setting: Setting,
  layers: SettingsLayers,
  issues: SettingsIssue[],
): Picked | "failed" | undefined {
  const option = layers.options?.[name];
  if (option !== undefined) return { source: { kind: "options" }, raw: option };
  const flag = layers.flags?.[name];
  if (flag !== undefined) return { source: { kind: "flag", negated: flag === false }, raw: flag };
  const environment = fromEnvironment(name, setting, layers, issues);
  if (environment !== undefined) return environment;
  const file = layers.file;
  if (file !== undefined && file.values[name] !== undefined) {
    return { source: { kind: "file", path: file.path }, raw: file.values[name] };
  }
  return undefined;
}

interface Reading {
  values: Record<string, unknown>;
  sources: Record<string, SettingSource>;
  raws: Record<string, unknown>;
  failed: Set<string>;
}

function readOne(
  name: string,
  setting: Setting,
  picked: Picked | "failed" | undefined,
  read: Reading,
  issues: SettingsIssue[],
): void {
  read.values[name] = setting.default;
  read.sources[name] = { kind: "default" };
  if (picked === "failed") {
    read.failed.add(name);
    return;
  }
  const source = picked?.source ?? { kind: "default" };
  const raw = picked === undefined ? setting.default : picked.raw;
  read.sources[name] = source;
  read.raws[name] = raw;
  if (picked?.parsed !== undefined) {
    read.values[name] = picked.parsed.value;
    return;
  }
  const parsed = setting.schema.safeParse(raw);
  if (parsed.success) {
    read.values[name] = parsed.data;
    return;
  }
  read.failed.add(name);
  issues.push({
    names: [labelOf(source, name, setting)],
    message: `${describeGiven(source, name, setting, raw)}: ${parsed.error.issues[0]?.message ?? "is not valid"}`,
  });
}

/**
 * Every relation of every row, each only when all the settings it names are valid. The message
 * starts with the blamed setting and names the others in the words of the blamed one's source
 * (`--store fs: needs --store-dir`, `BOUNDED_MCP_STORE=fs: needs BOUNDED_MCP_STORE_DIR`).
 */
function checkRelations(table: SettingsTable, read: Reading, issues: SettingsIssue[]): void {
  const { values, sources, raws, failed } = read;
  const isSet = (name: string) => sources[name]?.kind !== "default";
  for (const setting of Object.values(table)) {
    for (const relation of setting.relations) {
      if (relation.settings.some((name) => failed.has(name) || !Object.hasOwn(table, name))) {
        continue;
      }
      const found = relation.check({ values, isSet });
      if (found === undefined) continue;
      const style = sources[found.setting] ?? { kind: "default" };
      const row = (name: string) => table[name] as Setting;
      const describe = (name: string): string =>
        isSet(name)
          ? describeGiven(sources[name] as SettingSource, name, row(name), raws[name])
          : describeDefault(style, name, row(name));
      issues.push({
        names: relation.settings.map((name) =>
          isSet(name)
            ? labelOf(sources[name] as SettingSource, name, row(name))
            : nameOn(style, name, row(name)),
        ),
        message: `${describe(found.setting)}: ${found.problem(describe)}`,
      });
    }
  }
}

/**
 * Reads every setting of `table` from `layers`, highest first (code options, flags, the
 * environment, a config file, then the default), once. Each value is parsed with its schema as it
 * is read, so a problem names the source the user used (`--inline-bytes 40: must be at least
 * 4096`); then the relations between settings are checked, each only when every setting it names
 * is valid. Nothing throws: the problems come back in `issues`, in table order.
 */
export function readSettings<Table extends SettingsTable>(
  table: Table,
  layers: SettingsLayers,
): SettingsReading<Table> {
  const issues: SettingsIssue[] = [];
  for (const key of Object.keys(layers.options ?? {})) {
    if (!Object.hasOwn(table, key)) {
      issues.push({ names: [`options.${key}`], message: `options.${key} is not a setting` });
    }
  }
  const read: Reading = { values: {}, sources: {}, raws: {}, failed: new Set() };
  for (const [name, setting] of Object.entries(table)) {
    readOne(name, setting, pick(name, setting, layers, issues), read, issues);
  }
  checkRelations(table, read, issues);
  const { values, sources } = read;
  return {
    values: values as SettingValues<Table>,
    sources: sources as SettingsReading<Table>["sources"],
    issues,
  };
}

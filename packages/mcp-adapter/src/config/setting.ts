import type { z } from "zod";

/** The problem a relation found: which setting to blame and what is wrong, in the user's names. */
export interface RelationProblem {
  /** The setting the message starts with (the one the user set, when only one of them is set). */
  setting: string;
  /** The problem, worded with `name(other)`: `--inline-bytes 20000`, `BOUNDED_MCP_STORE_DIR`. */
  problem(name: (setting: string) => string): string;
}

/** What a relation sees: every valid value, and whether the user gave it (or it is the default). */
export interface RelationContext {
  readonly values: Readonly<Record<string, unknown>>;
  isSet(setting: string): boolean;
}

/**
 * A rule between settings (`previewBytes < inlineBytes`, `store fs needs storeDir`). It is
 * checked once every value is read, and only when all the settings it names hold valid values,
 * so one bad value gives one message.
 */
export interface SettingRelation {
  /** The rule as `--help` states it, in setting names. */
  readonly rule: string;
  /** Every setting it reads. */
  readonly settings: readonly string[];
  check(context: RelationContext): RelationProblem | undefined;
}

/** How a kind of value is read and written back; see setting-kinds.ts. */
export interface SettingKind<Value, Input> {
  /** Reads text (flags, environment) and typed values (config file, code) into the value. */
  readonly schema: z.ZodType<Value>;
  /** The flag's argument in `--help` (`<bytes>`); null for a boolean flag (`--x`, `--no-x`). */
  readonly argument: string | null;
  /** A repeatable flag; a comma-separated list in the environment. */
  readonly multiple: boolean;
  /** The value's own bounds as `--help` states them after the name: `>= 4096`. */
  readonly limits: readonly string[];
  /** The value as a person writes it (`32KiB`, `24h`), for `--help` and messages. */
  show(value: Value): string;
  /** Type only: what code may pass (`number | string` for a byte count). */
  readonly input?: Input;
}

/**
 * One setting: the single place that says how it is named on every layer (flag, environment
 * variable, config-file key = its name in the table, code option = the same name), how its value
 * is read and checked, its default, and its help line. Build one with `defineSetting`.
 */
export interface Setting<Value = unknown, Input = unknown> extends SettingKind<Value, Input> {
  /** `inline-bytes` for `--inline-bytes` (and `--no-inline-bytes` when it is a boolean). */
  readonly flag: string;
  /** The environment variable (`BOUNDED_MCP_INLINE_BYTES`); an app may add aliases. */
  readonly env: string;
  /** One line for `--help`. */
  readonly help: string;
  /** The value when no layer gives one; `null` means "none" (and must pass the schema). */
  readonly default: Value;
  /** The default in `--help` when it is not a plain value ("fs when storeDir is set, ..."). */
  readonly defaultText: string | null;
  /** Never echoed in messages (the key ring). */
  readonly secret: boolean;
  /** Rules against other settings of the same table. */
  readonly relations: readonly SettingRelation[];
}

/** Settings by name; the name is the config-file key and the code option. */
// biome-ignore lint/suspicious/noExplicitAny: a table holds settings of every value type.
export type SettingsTable = Readonly<Record<string, Setting<any, any>>>;

/** The values a table resolves to, by name. */
export type SettingValues<Table extends SettingsTable> = {
  -readonly [Name in keyof Table]: Table[Name] extends Setting<infer Value, unknown>
    ? Value
    : never;
};

/** What code may give for each setting of a table (every one optional). */
export type SettingInputs<Table extends SettingsTable> = {
  [Name in keyof Table]?: Table[Name] extends Setting<unknown, infer Input> ? Input : never;
};

/** What `defineSetting` needs: the names, the kind of value, the default and the help line. */
export interface SettingSpec<Value, Input> {
  flag: string;
  env: string;
  value: SettingKind<Value, Input>;
  default: NoInfer<Value>;
  help: string;
  defaultText?: string;
  secret?: boolean;
  relations?: readonly SettingRelation[];
}

/** One row of a settings table (see `ADAPTER_SETTINGS` for the adapter's own rows). */
export function defineSetting<Value, Input>(
  spec: SettingSpec<Value, Input>,
): Setting<Value, Input> {
  const { value, ...rest } = spec;
  return {
    schema: value.schema,
    argument: value.argument,
    multiple: value.multiple,
    limits: value.limits,
    show: value.show,
    flag: rest.flag,
    env: rest.env,
    help: rest.help,
    default: rest.default,
    defaultText: rest.defaultText ?? null,
    secret: rest.secret ?? false,
    relations: rest.relations ?? [],
  };
}

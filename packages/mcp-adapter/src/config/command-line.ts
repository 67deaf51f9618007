import { type ParseArgsConfig, parseArgs } from "node:util";
import type { SettingsTable } from "./setting.js";
import { SettingsError } from "./settings-error.js";

/** What a command line says, before the environment and a config file are read. */
export interface CommandLine {
  /** Setting values by setting name (text, true/false for `--x`/`--no-x`, lists of text). */
  values: Record<string, string | boolean | string[]>;
  /** The app's own flags that are no setting (`--config <file>`), by flag name. */
  extra: Record<string, string>;
  /** Arguments after `--` (the upstream command of the proxy). */
  command: string[];
  help: boolean;
  version: boolean;
}

/** What readCommandLine needs besides the table. */
export interface CommandLineOptions {
  /** Flags that take a value but are no setting (`config`). */
  extraFlags?: readonly string[];
  /** What to say of an argument that is no flag: `put the upstream command after --`. */
  positionalHint?: string;
}

function refuse(message: string): never {
  throw new SettingsError([{ names: [], message }]);
}

/**
 * Reads `[--flag value | --flag=value | --x | --no-x]... [-- command...]` with node:util
 * parseArgs, the flags generated from `table` (a boolean setting is `--x`/`--no-x`, a list
 * setting is repeatable) plus `--help`/`-h`, `--version`/`-v` and `extraFlags`. An unknown flag,
 * a flag without its value or an argument before `--` throws a SettingsError with one line such
 * as `unknown option --x (see --help)`; values are checked later, with the other layers.
 */
export function readCommandLine(
  table: SettingsTable,
  argv: readonly string[],
  options: CommandLineOptions = {},
): CommandLine {
  const byFlag = new Map(Object.entries(table).map(([name, setting]) => [setting.flag, name]));
  const config: NonNullable<ParseArgsConfig["options"]> = {
    help: { type: "boolean", short: "h" },
    version: { type: "boolean", short: "v" },
  };
  for (const setting of Object.values(table)) {
    config[setting.flag] =
      setting.argument === null
        ? { type: "boolean" }
        : { type: "string", multiple: setting.multiple };
  }
  for (const flag of options.extraFlags ?? []) config[flag] = { type: "string" };
  const { tokens } = parseArgs({
    args: [...argv],
    options: config,
    strict: false,
    allowPositionals: true,
    allowNegative: true,
    tokens: true,
  });
  const line: CommandLine = { values: {}, extra: {}, command: [], help: false, version: false };
  for (const token of tokens) {
    if (token.kind === "option-terminator") {
      line.command = argv.slice(token.index + 1);
      break;
    }
    if (token.kind === "positional") {
      const hint = options.positionalHint === undefined ? "" : `: ${options.positionalHint}`;
      refuse(`unexpected argument ${JSON.stringify(token.value)}${hint}`);
    }
    const spec = config[token.name];
    const negated = token.rawName !== `--${token.name}` && token.rawName.startsWith("--no-");
    if (spec === undefined || (negated && spec.type !== "boolean")) {
      refuse(`unknown option ${token.rawName} (see --help)`);
    }
    if (spec.type === "boolean") {
      if (token.inlineValue) {
        refuse(`${token.rawName} takes no value (use --${token.name} or --no-${token.name})`);
      }
      if (token.name === "help") line.help = true;
      else if (token.name === "version") line.version = true;
      else line.values[byFlag.get(token.name) as string] = !negated;
      continue;
    }
    const value = token.value;
    if (value === undefined || (!token.inlineValue && value.startsWith("-"))) {
      refuse(`${token.rawName} needs a value`);
    }
    const name = byFlag.get(token.name);
    if (name === undefined) line.extra[token.name] = value;
    else if (spec.multiple) {
      const list = line.values[name];
      line.values[name] = [...(Array.isArray(list) ? list : []), value];
    } else line.values[name] = value;
  }
  return line;
}

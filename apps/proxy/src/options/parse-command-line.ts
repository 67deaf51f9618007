import { findOption } from "./option-table.js";
import { UsageError } from "./usage-error.js";

/** What the command line says, before the environment and the config file are merged in. */
export interface CommandLine {
  /** Option values by flag name; lists hold every repetition in order. */
  values: Map<string, string | boolean | string[]>;
  /** The upstream command after `--`, empty when none. */
  command: string[];
  config: string | null;
  help: boolean;
  version: boolean;
}

function takeValue(argv: readonly string[], index: number, flag: string): string {
  const value = argv[index];
  if (value === undefined || value === "--") throw new UsageError(`--${flag} needs a value`);
  return value;
}

/**
 * Reads `bounded-mcp-proxy [options] [-- <command> [args...]]`: `--name value`, `--name=value`,
 * `--flag`/`--no-flag` for booleans, repeatable list options. Unknown options are refused.
 */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const result: CommandLine = {
    values: new Map(),
    command: [],
    config: null,
    help: false,
    version: false,
  };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === "--") {
      result.command = argv.slice(index + 1);
      break;
    }
    if (argument === "--help" || argument === "-h") result.help = true;
    else if (argument === "--version" || argument === "-v") result.version = true;
    else if (!argument.startsWith("--")) {
      throw new UsageError(`unexpected argument "${argument}": put the upstream command after --`);
    } else {
      const equals = argument.indexOf("=");
      const name = argument.slice(2, equals === -1 ? undefined : equals);
      const inline = equals === -1 ? undefined : argument.slice(equals + 1);
      if (name === "config") {
        result.config = inline ?? takeValue(argv, ++index, name);
        continue;
      }
      const negated = name.startsWith("no-") ? findOption(name.slice(3)) : undefined;
      if (negated?.kind === "boolean" && inline === undefined) {
        result.values.set(negated.flag, false);
        continue;
      }
      const spec = findOption(name);
      if (!spec) throw new UsageError(`unknown option --${name} (see --help)`);
      if (spec.kind === "boolean" && inline === undefined) {
        result.values.set(spec.flag, true);
      } else if (spec.kind === "list") {
        const list = (result.values.get(spec.flag) as string[] | undefined) ?? [];
        list.push(inline ?? takeValue(argv, ++index, name));
        result.values.set(spec.flag, list);
      } else {
        result.values.set(spec.flag, inline ?? takeValue(argv, ++index, name));
      }
    }
  }
  return result;
}

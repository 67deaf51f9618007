import { describe, expect, it } from "vitest";
import { ADAPTER_SETTINGS } from "./adapter-settings.js";
import { readCommandLine } from "./command-line.js";
import { defineSetting } from "./setting.js";
import { SETTING_KINDS } from "./setting-kinds.js";
import { SettingsError } from "./settings-error.js";

const TABLE = {
  ...ADAPTER_SETTINGS,
  allowedOrigin: defineSetting({
    flag: "allowed-origin",
    env: "APP_ALLOWED_ORIGINS",
    value: SETTING_KINDS.list((text) => ({ ok: true, value: text }), { argument: "<origin>" }),
    default: [],
    help: "an origin",
  }),
};

function refused(argv: string[]): string {
  try {
    readCommandLine(TABLE, argv, { positionalHint: "put the upstream command after --" });
  } catch (error) {
    if (!SettingsError.isInstance(error)) throw error;
    expect(error.issues).toHaveLength(1);
    return error.issues[0]?.message ?? "";
  }
  throw new Error("expected a refusal");
}

describe("readCommandLine", () => {
  it("reads values by setting name, booleans with --no-, repeated lists and the command after --", () => {
    expect(
      readCommandLine(
        TABLE,
        [
          "--inline-bytes",
          "48KiB",
          "--ttl=30m",
          "--no-resource-links",
          "--include-output-schema",
          "--allowed-origin",
          "https://a.example",
          "--allowed-origin=https://b.example",
          "--config",
          "/c.json",
          "--",
          "npx",
          "-y",
          "server",
          "--flag",
        ],
        { extraFlags: ["config"] },
      ),
    ).toEqual({
      values: {
        inlineBytes: "48KiB",
        ttl: "30m",
        resourceLinks: false,
        includeOutputSchema: true,
        allowedOrigin: ["https://a.example", "https://b.example"],
      },
      extra: { config: "/c.json" },
      command: ["npx", "-y", "server", "--flag"],
      help: false,
      version: false,
    });
  });

  it("answers --help, -h, --version and -v", () => {
    expect(readCommandLine(TABLE, ["-h"]).help).toBe(true);
    expect(readCommandLine(TABLE, ["--help"]).help).toBe(true);
    expect(readCommandLine(TABLE, ["--version"]).version).toBe(true);
    expect(readCommandLine(TABLE, ["-v"]).version).toBe(true);
  });

  it.each([
    [["--bogus"], "unknown option --bogus (see --help)"],
    [["--bogus=1"], "unknown option --bogus (see --help)"],
    [["-x"], "unknown option -x (see --help)"],
    [["--no-inline-bytes"], "unknown option --no-inline-bytes (see --help)"],
    [["--inline-bytes"], "--inline-bytes needs a value"],
    [["--inline-bytes", "--", "x"], "--inline-bytes needs a value"],
    [["--inline-bytes", "--ttl", "1h"], "--inline-bytes needs a value"],
    [
      ["--resource-links=no"],
      "--resource-links takes no value (use --resource-links or --no-resource-links)",
    ],
    [["server.js"], 'unexpected argument "server.js": put the upstream command after --'],
  ])("refuses %j with one line", (argv, message) => {
    expect(refused(argv)).toBe(message);
  });
});

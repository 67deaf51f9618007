import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PROXY_TABLE } from "./proxy-settings.js";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

describe("the README's options table", () => {
  it.each(Object.entries(PROXY_TABLE))(
    "lists %s with its flag, variable and config key",
    (name, row) => {
      const flag = row.argument === null ? `--[no-]${row.flag}` : `--${row.flag} `;
      const line = readme.split("\n").find((text) => text.startsWith(`| \`${flag}`));
      expect(line).toBeDefined();
      expect(line).toContain(`\`${row.env}\``);
      expect(line).toContain(`\`${name}\``);
    },
  );
});

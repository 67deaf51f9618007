import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ADAPTER_SETTINGS } from "./adapter-settings.js";
import { readSettings } from "./read-settings.js";
import { flagUsage, formatSettingsHelp } from "./settings-help.js";

const rows = Object.entries(ADAPTER_SETTINGS);
const help = formatSettingsHelp(ADAPTER_SETTINGS).join("\n");

describe("the adapter's settings table", () => {
  it.each(rows)(
    "%s has a flag, a variable, a key and a default that passes its schema",
    (name, row) => {
      expect(row.flag).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(row.env).toMatch(/^BOUNDED_MCP_[A-Z0-9_]+$/);
      expect(name).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(row.help).not.toBe("");
      const parsed = row.schema.safeParse(row.default);
      expect(parsed.success).toBe(true);
      expect(parsed.data).toEqual(row.default);
    },
  );

  it.each(rows)("%s appears in --help with its flag, variable, key and default", (name, row) => {
    const at = help.indexOf(`  ${flagUsage(row)} `);
    expect(at).toBeGreaterThanOrEqual(0);
    const block = help.slice(at).split("\n").slice(0, 4).join("\n");
    expect(block).toContain(`env ${row.env}, key ${name}, default `);
  });

  it("uses every flag, variable and key once, and names only rows of the table in relations", () => {
    for (const field of ["flag", "env"] as const) {
      const values = rows.map(([, row]) => row[field]);
      expect(new Set(values).size).toBe(values.length);
    }
    for (const [, row] of rows) {
      for (const relation of row.relations) {
        for (const setting of relation.settings)
          expect(Object.keys(ADAPTER_SETTINGS)).toContain(setting);
      }
    }
  });

  it("has defaults that pass every relation", () => {
    expect(readSettings(ADAPTER_SETTINGS, {}).issues).toEqual([]);
  });
});

describe("--help of the adapter's settings", () => {
  it("states the limits and relations beside the settings they concern", () => {
    const block = (flag: string) => {
      const lines = help.split("\n");
      const at = lines.findIndex((line) => line.startsWith(`  --${flag} `));
      const next = lines.findIndex((line, index) => index > at && line.startsWith("  --"));
      return lines.slice(at, next).join("\n");
    };
    expect(block("inline-bytes")).toMatchInlineSnapshot(`
      "  --inline-bytes <bytes>            results up to this size pass through unchanged
                                          env BOUNDED_MCP_INLINE_BYTES, key inlineBytes, default 32KiB
                                          limits: inlineBytes >= 4096; inlineBytes <= hardBytes;
                                          inlineBytes <= artifactMaxBytes; previewBytes < inlineBytes"
    `);
    expect(block("preview-bytes")).toMatchInlineSnapshot(`
      "  --preview-bytes <bytes>           size of the bounded envelope that replaces an oversized result
                                          env BOUNDED_MCP_PREVIEW_BYTES, key previewBytes, default 8KiB
                                          limits: previewBytes >= 1024; previewBytes < inlineBytes"
    `);
    expect(block("store")).toMatchInlineSnapshot(`
      "  --store <kind>                    where oversized results are kept: memory, fs or s3
                                          env BOUNDED_MCP_STORE, key store, default fs with storeDir, s3 with s3Bucket, else memory
                                          limits: store fs needs storeDir; store s3 needs s3Bucket;
                                          storeDir only with store fs; storeDir with s3Bucket needs store;
                                          s3Bucket only with store s3"
    `);
  });
});

describe("the README's settings section", () => {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

  it("shows the queryWorkMs row as the table has it", () => {
    const row = ADAPTER_SETTINGS.queryWorkMs;
    const example = readme.slice(readme.indexOf("   queryWorkMs: defineSetting({"));
    const block = example.slice(0, example.indexOf("\n   }),"));
    for (const field of [
      `flag: "${row.flag}"`,
      `env: "${row.env}"`,
      `default: ${row.default}`,
      `help: ${JSON.stringify(row.help)}`,
    ]) {
      expect(block).toContain(field);
    }
  });

  it("names every setting and variable of the table", () => {
    for (const [name, row] of rows) {
      expect(readme).toContain(`\`${name}\``);
      expect(readme).toContain(
        row.env.replace(/^BOUNDED_MCP_S3_(?!FORCE).*/, "BOUNDED_MCP_S3_BUCKET"),
      );
    }
  });
});

import { readFileSync } from "node:fs";

/**
 * The names an entry file exports, read from its named re-export blocks (`export { ... } from`,
 * `export type { ... } from`): values and types apart, each sorted. Surface tests pin these. It
 * throws on `export *`, which would hide what the entry exports.
 */
export function readEntryExports(entryUrl) {
  const source = readFileSync(entryUrl, "utf8");
  if (/export\s+\*/.test(source)) throw new Error(`${entryUrl} uses export *`);
  const values = [];
  const types = [];
  for (const block of source.matchAll(/export\s+(type\s+)?\{([^}]*)\}\s+from/g)) {
    for (const raw of block[2].split(",")) {
      const name = raw.trim();
      if (name === "") continue;
      if (block[1] !== undefined || name.startsWith("type "))
        types.push(name.replace(/^type\s+/, ""));
      else values.push(name);
    }
  }
  return { values: values.sort(), types: types.sort() };
}

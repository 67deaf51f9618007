import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One row of the generated document: predictable, so tests can name what they look for. */
export interface Row {
  id: number;
  name: string;
  team: string;
  active: boolean;
  notes: string;
}

/** Row i of the generated document. */
export function row(index: number): Row {
  return {
    id: index,
    name: `user-${index}`,
    team: ["core", "edge", "data"][index % 3]!,
    active: index % 2 === 0,
    notes: `row ${index} ${"lorem ipsum dolor sit amet ".repeat(8)}`,
  };
}

/**
 * A folder holding `big.json` (`{"kind": "export", "rows": [...]}`, at least `mebibytes` MiB of
 * pretty JSON, as servers tend to write it) and `small.json`; the folder path is real (no
 * symlinks), as server-filesystem compares paths after resolving them.
 */
export function createJsonFolder(mebibytes: number): {
  dir: string;
  bigPath: string;
  smallPath: string;
  rowCount: number;
} {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "bounded-mcp-proxy-")));
  const rowCount = Math.ceil((mebibytes * 1024 * 1024) / 330);
  const rows = Array.from({ length: rowCount }, (_, index) => row(index));
  const bigPath = join(dir, "big.json");
  const smallPath = join(dir, "small.json");
  writeFileSync(bigPath, JSON.stringify({ kind: "export", rows }, null, 1));
  writeFileSync(smallPath, JSON.stringify({ kind: "small", rows: rows.slice(0, 3) }));
  return { dir, bigPath, smallPath, rowCount };
}

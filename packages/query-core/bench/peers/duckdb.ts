import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { type Timing, timed } from "./json-parse.js";

// DuckDB as a peer of the §9 benchmark: the file loaded once into an in-memory table with
// read_json_auto on one thread (untimed for the queries; its time is reported apart), then each
// query timed on that table, rows read back into JavaScript.

/** An in-memory DuckDB holding the document as table `nodes`, one row per array item. */
export interface LoadedDuckDb {
  readonly connection: DuckDBConnection;
  readonly version: string;
  /** Wall and CPU time of the CREATE TABLE ... read_json_auto. */
  readonly load: Timing;
  readonly close: () => void;
}

function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * Loads a JSON array file into table `nodes` with `SET threads=1`. Rows keep the file's order
 * (one thread, insertion order preserved), so `rowid` is the item's index: ties order by it.
 */
export async function loadDuckDb(file: string): Promise<LoadedDuckDb> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  await connection.run("SET threads=1");
  await connection.run("SET preserve_insertion_order=true");
  const version = String(
    (await connection.runAndReadAll("SELECT version() AS v")).getRowObjectsJS()[0]?.["v"],
  );
  const load = await timed(() =>
    connection.run(
      `CREATE TABLE nodes AS SELECT * FROM read_json_auto(${quoteLiteral(file)}, format = 'array')`,
    ),
  );
  return {
    connection,
    version,
    load: { ms: load.ms, cpuMs: load.cpuMs },
    close: () => {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/**
 * Runs one query and reads every row back as plain JavaScript values; wall time, and CPU time of
 * this process (DuckDB's one worker thread and the JavaScript side together).
 */
export async function runDuckDb(
  connection: DuckDBConnection,
  sql: string,
): Promise<Timing & { rows: Record<string, unknown>[] }> {
  const run = await timed(async () => {
    const reader = await connection.runAndReadAll(sql);
    return reader.getRowObjectsJS() as Record<string, unknown>[];
  });
  return { ms: run.ms, cpuMs: run.cpuMs, rows: run.value };
}

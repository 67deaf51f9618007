import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";

// DuckDB as a peer of the §9 benchmark: the file loaded once into an in-memory table with
// read_json_auto on one thread (untimed for the queries; its time is reported apart), then each
// query timed on that table, rows read back into JavaScript.

/** An in-memory DuckDB holding the document as table `nodes`, one row per array item. */
export interface LoadedDuckDb {
  readonly connection: DuckDBConnection;
  readonly version: string;
  /** Wall time of the CREATE TABLE ... read_json_auto, in ms. */
  readonly loadMs: number;
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
  const start = performance.now();
  await connection.run(
    `CREATE TABLE nodes AS SELECT * FROM read_json_auto(${quoteLiteral(file)}, format = 'array')`,
  );
  const loadMs = performance.now() - start;
  return {
    connection,
    version,
    loadMs,
    close: () => {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/** Runs one query and reads every row back as plain JavaScript values; its wall time in ms. */
export async function runDuckDb(
  connection: DuckDBConnection,
  sql: string,
): Promise<{ ms: number; rows: Record<string, unknown>[] }> {
  const start = performance.now();
  const reader = await connection.runAndReadAll(sql);
  const rows = reader.getRowObjectsJS() as Record<string, unknown>[];
  return { ms: performance.now() - start, rows };
}

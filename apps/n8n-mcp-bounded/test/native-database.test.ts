import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

describe("the installed n8n-mcp", () => {
  it("loads its native better-sqlite3 (else it silently falls back to sql.js, with other search results)", () => {
    const fromApp = createRequire(import.meta.url);
    const fromN8nMcp = createRequire(fromApp.resolve("n8n-mcp"));
    const Database = fromN8nMcp("better-sqlite3") as new (
      path: string,
    ) => {
      prepare(sql: string): { get(): unknown };
      close(): void;
    };
    const database = new Database(":memory:");
    expect(database.prepare("select 1 + 1 as two").get()).toEqual({ two: 2 });
    database.close();
  });
});

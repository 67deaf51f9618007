// The SPEC.md §9 benchmark cases, each written three times: as a query_response_artifact request
// for the engine, as a jq 1.6 program and as DuckDB SQL over the loaded table `nodes`. Each system's
// output is reduced to one comparable answer (ids of a page, group counts), so the benchmark can
// check that all three computed the same thing before it compares their times.
import { parseQueryRequest, type QueryRequest } from "@bounded-mcp/contract";

/** The artifact id the engine requests carry (any valid id: the engine does not look it up). */
export const ARTIFACT_ID = "bench_artifact_0000000000";

/** One system's answer to one case, as canonical JSON text: equal texts are equal answers. */
export type Answer = string;

/**
 * One §9 case. `engine` is the request (the next-page case gets its cursor at run time from
 * the first page); `jq` a jq 1.6 program over the whole array; `sql` a DuckDB query over `nodes`
 * (one row per array item, in document order by `rowid`); `target` the ratio to JSON.parse that
 * SPEC.md §9's benchmark asks of the warm engine.
 */
export interface ExtensionCase {
  readonly name: string;
  readonly target: number;
  readonly engine: QueryRequest;
  /** The case whose nextCursor this one sends back, or undefined for a first page. */
  readonly cursorOf?: string;
  /**
   * For a case the product answers differently with a view cache (the proxy always passes one):
   * an earlier question over the same paths with other values, so the case is also timed as a
   * first question (a fresh view cache) and as a second one (a fresh view cache in which this
   * request ran first, untimed).
   */
  readonly earlier?: QueryRequest;
  readonly jq: string;
  readonly sql: string;
  readonly engineAnswer: (result: EngineResult) => Answer;
  readonly jqAnswer: (output: unknown) => Answer;
  readonly sqlAnswer: (rows: Record<string, unknown>[]) => Answer;
}

/** The part of a successful engine result the answers read. */
export interface EngineResult {
  response?: unknown;
  responseMeta?: { totalCount?: number; nextCursor?: string | null; returnedCount?: number };
}

function request(input: Record<string, unknown>): QueryRequest {
  const parsed = parseQueryRequest({ artifactId: ARTIFACT_ID, ...input });
  if (!parsed.success) throw new Error(`bench request rejected: ${parsed.error.message}`);
  return parsed.data;
}

const idsOf = (items: unknown): Answer =>
  JSON.stringify((items as { id: unknown }[]).map((item) => item.id));

const pageAnswer = (result: EngineResult): Answer => idsOf(result.response);

/** Group rows as `[[value, count], ...]` in the order given. */
const groupsOf = (rows: readonly Record<string, unknown>[], key: string): Answer =>
  JSON.stringify(rows.map((row) => [row[key], Number(row["count"])]));

/** The page of a filter: the total matched and the first page's ids. */
const matchAnswer = (total: unknown, items: unknown): Answer =>
  JSON.stringify({ total: Number(total), ids: JSON.parse(idsOf(items)) });

const SORT_PATH = "/position/1";
const PAGE_SIZE = 20;

// Ties keep document order in both directions (§9 rule 2): jq's sort_by is stable, so sorting by
// the negated number gives the descending order with ties in document order; DuckDB breaks ties
// by rowid. The number is present on every node and grows through the document (40 nodes per
// value), the unfavourable input for a descending top-k: most values beat the heap's worst.
const sortFirst: ExtensionCase = {
  name: "sort by a number (desc), top page of 20",
  target: 0.05,
  engine: request({ sort: [{ path: SORT_PATH, order: "desc" }], pageSize: PAGE_SIZE }),
  jq: `sort_by(-.position[1]) | .[0:${PAGE_SIZE}]`,
  sql: `SELECT * FROM nodes ORDER BY position[2] DESC, rowid LIMIT ${PAGE_SIZE}`,
  engineAnswer: pageAnswer,
  jqAnswer: idsOf,
  sqlAnswer: idsOf,
};

const sortNext: ExtensionCase = {
  name: "sort by a number (desc), next page (nextCursor)",
  target: 0.05,
  engine: sortFirst.engine,
  cursorOf: sortFirst.name,
  jq: `sort_by(-.position[1]) | .[${PAGE_SIZE}:${2 * PAGE_SIZE}]`,
  sql: `SELECT * FROM nodes ORDER BY position[2] DESC, rowid LIMIT ${PAGE_SIZE} OFFSET ${PAGE_SIZE}`,
  engineAnswer: pageAnswer,
  jqAnswer: idsOf,
  sqlAnswer: idsOf,
};

// Rows in §9 rule 3's order: count descending, then the group value ascending.
const groupCount: ExtensionCase = {
  name: "groupBy a string, count",
  target: 0.05,
  engine: request({ aggregate: { groupBy: "/type" } }),
  jq: "group_by(.type) | map({type: .[0].type, count: length}) | sort_by(-.count, .type)",
  sql: "SELECT type, count(*) AS count FROM nodes GROUP BY type ORDER BY count DESC, type",
  engineAnswer: (result) => groupsOf(result.response as Record<string, unknown>[], "/type"),
  jqAnswer: (output) => groupsOf(output as Record<string, unknown>[], "type"),
  sqlAnswer: (rows) => groupsOf(rows, "type"),
};

// Unwind counts an item once per group (§9 rule 3), so a tag repeated in one item's array counts
// once: jq's `unique` and DuckDB's list_distinct do the same. An empty array forms no group.
const groupUnwind: ExtensionCase = {
  name: "groupBy with unwind over an array of strings",
  target: 0.08,
  engine: request({ aggregate: { groupBy: "/tags", unwind: true } }),
  jq: "[.[] | (.tags | unique)[]] | group_by(.) | map({tag: .[0], count: length}) | sort_by(-.count, .tag)",
  sql: "SELECT tag, count(*) AS count FROM (SELECT unnest(list_distinct(tags)) AS tag FROM nodes) GROUP BY tag ORDER BY count DESC, tag",
  engineAnswer: (result) => groupsOf(result.response as Record<string, unknown>[], "/tags"),
  jqAnswer: (output) => groupsOf(output as Record<string, unknown>[], "tag"),
  sqlAnswer: (rows) => groupsOf(rows, "tag"),
};

// icontains is case-insensitive containment; every value here is ASCII, so jq's ascii_downcase
// and DuckDB's ILIKE (no `%` or `_` in the needles) mean the same. A missing url matches nothing.
const anyOfContains: ExtensionCase = {
  name: "anyOf of two icontains filters (first page + total)",
  target: 0.05,
  engine: request({
    filters: [
      {
        anyOf: [
          { path: "/name", op: "icontains", value: "node 77" },
          { path: "/parameters/url", op: "icontains", value: "resource/42" },
        ],
      },
    ],
    pageSize: PAGE_SIZE,
  }),
  earlier: request({
    filters: [
      {
        anyOf: [
          { path: "/name", op: "icontains", value: "node 12" },
          { path: "/parameters/url", op: "icontains", value: "resource/31" },
        ],
      },
    ],
    pageSize: PAGE_SIZE,
  }),
  jq:
    `map(select((.name | ascii_downcase | contains("node 77")) or ` +
    `((.parameters.url // "") | ascii_downcase | contains("resource/42")))) ` +
    `| {total: length, page: .[0:${PAGE_SIZE}]}`,
  sql:
    "SELECT count(*) OVER () AS total, * FROM nodes " +
    "WHERE name ILIKE '%node 77%' OR parameters.url ILIKE '%resource/42%' " +
    `ORDER BY rowid LIMIT ${PAGE_SIZE}`,
  engineAnswer: (result) => matchAnswer(result.responseMeta?.totalCount, result.response),
  jqAnswer: (output) => {
    const { total, page } = output as { total: number; page: unknown };
    return matchAnswer(total, page);
  },
  sqlAnswer: (rows) => matchAnswer(rows[0]?.["total"] ?? 0, rows),
};

/** Every case, in the order every round runs them. */
export const ALL_EXTENSION_CASES: readonly ExtensionCase[] = [
  sortFirst,
  sortNext,
  groupCount,
  groupUnwind,
  anyOfContains,
];

/**
 * The cases this run measures: all of them, or with BENCH_EXT_CASES (comma-separated parts of
 * case names, e.g. `BENCH_EXT_CASES=anyOf`) those whose name holds one of the parts, with the
 * cases whose cursor they page on.
 */
export function selectedCases(filter: string | undefined): readonly ExtensionCase[] {
  if (filter === undefined || filter.trim() === "") return ALL_EXTENSION_CASES;
  const parts = filter.split(",").map((part) => part.trim().toLowerCase());
  const wanted = new Set(
    ALL_EXTENSION_CASES.filter((item) =>
      parts.some((part) => part !== "" && item.name.toLowerCase().includes(part)),
    ).flatMap((item) => [item.name, ...(item.cursorOf === undefined ? [] : [item.cursorOf])]),
  );
  if (wanted.size === 0) throw new Error(`BENCH_EXT_CASES=${filter} names no case`);
  return ALL_EXTENSION_CASES.filter((item) => wanted.has(item.name));
}

/** The cases this run measures (BENCH_EXT_CASES, see selectedCases). */
export const EXTENSION_CASES: readonly ExtensionCase[] = selectedCases(
  process.env["BENCH_EXT_CASES"],
);

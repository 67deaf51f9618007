// The sections of BENCHMARKS.md: which parts fill each one, the command that runs it alone, and
// the targets it must state met or not (from the issues that set them). A target no part of the
// run reports is printed as "not measured in this run", never guessed.

/**
 * @typedef {{ id: string, text: string, op: "<=" | ">=", limit: number, unit: string, from: string }} TargetDefinition
 * @typedef {{ id: string, title: string, intro: string, commands: string[], targets: TargetDefinition[] }} SectionDefinition
 */

/** Each issue-13 target judged on wall time and, apart, on CPU time (id suffix "-cpu"). */
const onBothClocks = (targets) =>
  targets.flatMap((target) => [
    target,
    { ...target, id: `${target.id}-cpu`, text: `${target.text} (CPU time)` },
  ]);

/** @type {SectionDefinition[]} */
export const SECTIONS = [
  {
    id: "engine",
    title: "Engine against its peers (warm)",
    intro:
      "The query engine on a document already parsed, against DuckDB on a table loaded once (1 thread), a plain JS loop (the floor), jsonpath-plus and jq 1.6 (beyond its own parse), on the same generated 50 MiB node array; and the SPEC.md §9 cases (sort, groupBy, unwind, anyOf) as ratios to JSON.parse of the same text timed in a process that holds only the text.",
    commands: [
      "pnpm --filter @bounded-mcp/peers-bench bench",
      "pnpm --filter @bounded-mcp/query-core bench:extensions",
    ],
    targets: [
      {
        id: "warm-filtered-vs-duckdb",
        text: "warm filtered + projected page ≤ DuckDB's loaded table",
        op: "<=",
        limit: 1,
        unit: "x",
        from: "issue 18",
      },
      {
        id: "warm-filtered-vs-duckdb-cpu",
        text: "the same, on CPU time",
        op: "<=",
        limit: 1,
        unit: "x",
        from: "issue 18",
      },
      ...onBothClocks([
        {
          id: "sort-top",
          text: "sort, top page of 20 ≤ 0.05x JSON.parse",
          op: "<=",
          limit: 0.05,
          unit: "x",
          from: "issue 13",
        },
        {
          id: "sort-next",
          text: "sort, next page ≤ 0.05x JSON.parse",
          op: "<=",
          limit: 0.05,
          unit: "x",
          from: "issue 13",
        },
        {
          id: "groupby",
          text: "groupBy a string, count ≤ 0.05x JSON.parse",
          op: "<=",
          limit: 0.05,
          unit: "x",
          from: "issue 13",
        },
        {
          id: "unwind",
          text: "groupBy with unwind ≤ 0.08x JSON.parse",
          op: "<=",
          limit: 0.08,
          unit: "x",
          from: "issue 13",
        },
        {
          id: "anyof",
          text: "anyOf of two icontains ≤ 0.05x JSON.parse",
          op: "<=",
          limit: 0.05,
          unit: "x",
          from: "issue 13",
        },
      ]),
    ],
  },
  {
    id: "cold",
    title: "Cold path: a filtered page from the file",
    intro:
      "The same filtered + projected page when nothing is parsed yet: the engine in a fresh process (read the bytes, answer from them or parse, query), against DuckDB's read_json_auto on the file (1 thread), jq 1.6 as a whole process and JSON.parse of the text.",
    commands: ["pnpm --filter @bounded-mcp/peers-bench bench"],
    targets: [
      {
        id: "cold-filtered-vs-duckdb",
        text: "cold filtered page ≤ DuckDB's read_json_auto (1 thread)",
        op: "<=",
        limit: 1,
        unit: "x",
        from: "issue 18",
      },
      {
        id: "cold-filtered-vs-duckdb-cpu",
        text: "the same, on CPU time",
        op: "<=",
        limit: 1,
        unit: "x",
        from: "issue 18",
      },
    ],
  },
  {
    id: "views",
    title: "Views: later pages",
    intro:
      "What later pages of a view cost against its first page (the view cache), in CPU time: every page of the filtered view, page 200 of a keyed object, the next page of a sort; and each later page of the filtered view beyond its own cost (serializing its items).",
    commands: [
      "pnpm --filter @bounded-mcp/query-core bench:views",
      "pnpm --filter @bounded-mcp/peers-bench bench:later-pages",
    ],
    targets: [
      {
        id: "later-pages",
        text: "a later page ≤ 0.1 ms plus the page's own cost",
        op: "<=",
        limit: 0.1,
        unit: "ms",
        from: "issue 18",
      },
      {
        id: "all-pages",
        text: "all pages of the filtered view ≤ 2x one filtered page",
        op: "<=",
        limit: 2,
        unit: "x",
        from: "issue 18",
      },
    ],
  },
  {
    id: "bounding",
    title: "Bounding and exactness",
    intro:
      "Bounding a large result in-process (measure, store, preview) against JSON.parse of the same text, its peak RSS against the payload, and the cost of the exact-number pre-check on a payload without such numbers (SPEC.md §10: zero cost).",
    commands: [
      "pnpm --filter @bounded-mcp/mcp-adapter bench 50",
      "pnpm --filter @bounded-mcp/mcp-adapter bench:exact",
    ],
    targets: [
      {
        id: "exact-precheck",
        text: "exactness pre-check at zero cost: bound with the off-thread test ÷ plain JSON.parse bound, main-thread CPU, ≤ 1.05x (zero within this run's noise)",
        op: "<=",
        limit: 1.05,
        unit: "x",
        from: "issue 15",
      },
      {
        id: "exact-precheck-stored",
        text: "exactness pre-check at zero cost when a stored body is read back (by the verdict its metadata keeps) ÷ plain JSON.parse, main-thread CPU, ≤ 1.05x",
        op: "<=",
        limit: 1.05,
        unit: "x",
        from: "issue 15",
      },
    ],
  },
  {
    id: "relay",
    title: "Relay: small calls over stdio, one large result",
    intro:
      "A small tool call through the relay against the same call made directly and through a floor relay, interleaved in rounds; one 50 MiB result through the relay's stdio client transport against JSON.parse of the line that carries it.",
    commands: [
      "pnpm --filter @bounded-mcp/relay exec tsx bench/relay-call.ts",
      "pnpm --filter @bounded-mcp/relay exec tsx bench/relay-transport.ts 50",
    ],
    targets: [
      {
        id: "small-stdio-call",
        text: "small stdio call ≤ 1.3x a bare pipe relay (the two-hop floor)",
        op: "<=",
        limit: 1.3,
        unit: "x",
        from: "issue 18",
      },
    ],
  },
  {
    id: "proxy",
    title: "Proxy: end to end, HTTP load and memory",
    intro:
      "The built bounded-mcp-proxy: small calls over stdio and streamable HTTP against direct calls, one 50 MiB result end to end against JSON.parse of the same text, its peak RSS against the payload, and the soak's HTTP load (50 clients, 60 s; tooling/soak) for the RSS after warm-up and at the end.",
    commands: [
      "pnpm --filter bounded-mcp-proxy bench",
      "node packages/relay/bench/big-call-through-proxy.mjs 50 3",
      "pnpm --filter bounded-mcp-proxy bench:http -- --rounds 1",
      "pnpm --filter @bounded-mcp/bench-report exec tsx src/soak-part.js",
    ],
    targets: [
      {
        id: "proxy-e2e",
        text: "50 MiB result through the proxy ≤ 1.25x JSON.parse end to end",
        op: "<=",
        limit: 1.25,
        unit: "x",
        from: "issue 18",
      },
      {
        id: "rss-peak",
        text: "proxy peak RSS of one 50 MiB call ≤ 5x payload",
        op: "<=",
        limit: 5,
        unit: "x",
        from: "issue 18",
      },
      {
        id: "rss-steady",
        text: "proxy RSS after 60 s of 50 HTTP clients ≤ 1.5x RSS after warm-up",
        op: "<=",
        limit: 1.5,
        unit: "x",
        from: "issue 18",
      },
      {
        id: "http-rate",
        text: "HTTP filtered queries at 50 clients ≥ 0.9x the engine's rate",
        op: ">=",
        limit: 0.9,
        unit: "x",
        from: "issue 18",
      },
      {
        id: "http-p99",
        text: "HTTP filtered queries at 50 clients: p99 ≤ 100 ms",
        op: "<=",
        limit: 100,
        unit: "ms",
        from: "issue 18",
      },
    ],
  },
  {
    id: "stores",
    title: "Stores",
    intro:
      "put and get of every artifact store (memory, fs, s3 through s3rver, encrypted) against fs.writeFile and fs.readFile of the same bytes, measured right before each store.",
    commands: ["pnpm --filter @bounded-mcp/stores bench"],
    targets: [],
  },
  {
    id: "context",
    title: "Context: tokens a model reads",
    intro:
      "Tokens a model reads to answer questions over real n8n-mcp and server-filesystem results: the raw result in its context against the envelope plus query calls through the built bounded apps; and n8n-mcp calls direct against n8n-mcp-bounded.",
    commands: [
      "pnpm --filter @bounded-mcp/context-bench bench",
      "pnpm --filter n8n-mcp-bounded bench",
    ],
    targets: [],
  },
];

// The HTTP half of `pnpm soak`: the built proxy on streamable HTTP (127.0.0.1, port 0) in front of
// upstream.mjs, two principals (two bearer tokens), N SDK clients for S seconds making large calls
// and queries (pages, fields, filters, sort, aggregate, textSearch, cursors), plus probes that
// must fail: another principal's artifact id, another principal's cursor. Reports protocol
// errors, contract violations, cross-principal answers and the proxy's RSS after warm-up vs at
// the end (VmRSS from /proc/<pid>/status, Linux).
import { spawn } from "node:child_process";
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  BoundedEnvelopeSchema,
  QUERY_TOOL_NAME,
  QueryErrorResultSchema,
  QueryResultSchema,
} from "@bounded-mcp/contract";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const PROXY_CLI = fileURLToPath(new URL("../../apps/proxy/dist/cli.js", import.meta.url));
const UPSTREAM = fileURLToPath(new URL("./upstream.mjs", import.meta.url));
const PRINCIPALS = ["alice", "bob"];
/** The fixed warm-up of the first runs (its RSS is still reported as rssAt10sMiB). */
const WARM_UP_MS = 10_000;
/** The longest warm-up waiting for the store to be full (then the load is counted anyway). */
const FULL_WARM_UP_CAP_MS = 180_000;

/** A small deterministic generator, so a run's mix of calls can be replayed by its seed. */
function random(seed) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

/** CPU time (user + system) the process used so far, in seconds (/proc/<pid>/stat, 100 Hz). */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssKiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const read = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rss: read("VmRSS"), hwm: read("VmHWM") };
}

async function startProxy(tokensFile) {
  const child = spawn(
    process.execPath,
    [
      // BOUNDED_MCP_SOAK_NODE_FLAGS: node flags of the proxy process (e.g. "--trace-gc").
      ...(process.env.BOUNDED_MCP_SOAK_NODE_FLAGS ?? "").split(" ").filter((flag) => flag !== ""),
      PROXY_CLI,
      "--listen",
      "http://127.0.0.1:0/mcp",
      "--auth-tokens",
      tokensFile,
      "--store",
      "memory",
      "--max-sessions",
      "128",
      "--log-level",
      "warn",
      "--",
      process.execPath,
      UPSTREAM,
    ],
    {
      // BOUNDED_MCP_SOAK_PROXY_STDOUT=<file> keeps the proxy's stdout (empty over HTTP, except
      // what node flags print there, e.g. --trace-gc).
      stdio: [
        "ignore",
        process.env.BOUNDED_MCP_SOAK_PROXY_STDOUT
          ? openSync(process.env.BOUNDED_MCP_SOAK_PROXY_STDOUT, "w")
          : "ignore",
        "pipe",
      ],
      env: { ...process.env, BOUNDED_MCP_LOG_LEVEL: "warn" },
    },
  );
  let stderr = "";
  const url = await new Promise((resolve, reject) => {
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      const match = /listening on (\S+)/.exec(stderr);
      if (match) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`proxy exited (${code}): ${stderr}`)));
  });
  return { child, url, stderr: () => stderr };
}

function structured(result) {
  const text = result.content?.[0]?.type === "text" ? result.content[0].text : undefined;
  if (text !== JSON.stringify(result.structuredContent)) {
    throw new Error("structuredContent differs from the first text block");
  }
  return { envelope: result.structuredContent, text };
}

/** The views a client pages through; each is a different query of the records document. */
const VIEWS = [
  { responsePath: "/records", pageSize: 20 },
  { responsePath: "/records", fields: ["id", "owner", "score"], pageSize: 50 },
  {
    responsePath: "/records",
    filters: [{ path: "status", op: "eq", value: "active" }],
    pageSize: 25,
  },
  {
    responsePath: "/records",
    sort: [{ path: "score", order: "desc" }],
    fields: ["id", "owner"],
    pageSize: 30,
  },
  {
    responsePath: "/records",
    aggregate: { groupBy: "/tags/0", metrics: [{ op: "count" }, { op: "max", path: "/score" }] },
  },
  { responsePath: "/records", textSearch: { query: "ipsum lorem" }, pageSize: 10 },
  { responsePath: "/records/3" },
  { describe: true },
];

/** True when an answer's text holds a record of `other` (its owner field, id or note). */
function foreignData(text, other) {
  return (
    text.includes(`"owner":"${other}"`) ||
    text.includes(`"${other}-`) ||
    text.includes(` of ${other}:`)
  );
}

function newStats() {
  return {
    largeCalls: 0,
    smallCalls: 0,
    queries: 0,
    pagesFollowed: 0,
    queryErrors: {},
    ownArtifactsGone: 0,
    crossProbes: 0,
    crossCursorProbes: 0,
    crossPrincipalAnswers: 0,
    protocolErrors: 0,
    contractViolations: 0,
    samples: [],
  };
}

function note(stats, kind, detail) {
  stats[kind] += 1;
  if (stats.samples.length < 20) stats.samples.push(`${kind}: ${String(detail).slice(0, 300)}`);
}

async function runClient(index, principal, token, url, phase, shared, stats, seed) {
  const next = random(seed + index * 7_919);
  const other = PRINCIPALS.find((name) => name !== principal);
  const client = new Client({ name: `soak-${principal}-${index}`, version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  const mine = [];
  const guard = async (work) => {
    try {
      await work();
    } catch (error) {
      note(
        stats,
        "protocolErrors",
        error instanceof Error ? `${error.name}: ${error.message}` : error,
      );
    }
  };
  const query = async (args) => {
    stats.queries += 1;
    const result = await client.callTool({ name: QUERY_TOOL_NAME, arguments: args });
    const { envelope, text } = structured(result);
    if (foreignData(text, other)) {
      note(
        stats,
        "crossPrincipalAnswers",
        `${principal} got ${other}'s data: ${text.slice(0, 200)}`,
      );
    }
    if (result.isError) {
      const parsed = QueryErrorResultSchema.safeParse(envelope);
      if (!parsed.success) note(stats, "contractViolations", parsed.error.message);
      const code = envelope?.response?.error?.code ?? "none";
      stats.queryErrors[code] = (stats.queryErrors[code] ?? 0) + 1;
      return { ok: false, code, envelope };
    }
    const parsed = QueryResultSchema.safeParse(envelope);
    if (!parsed.success) note(stats, "contractViolations", parsed.error.message);
    if (envelope.artifactId !== args.artifactId)
      note(stats, "contractViolations", "another artifactId answered");
    return { ok: true, envelope };
  };
  while (Date.now() < phase.deadline) {
    const choice = next();
    if (mine.length === 0 || choice < 0.12) {
      await guard(async () => {
        const count = 400 + Math.floor(next() * 3_600);
        const result = await client.callTool({
          name: "records",
          arguments: { owner: principal, count, seed: Math.floor(next() * 1e9) },
        });
        stats.largeCalls += 1;
        const { envelope, text } = structured(result);
        const parsed = BoundedEnvelopeSchema.safeParse(envelope);
        if (!parsed.success) return note(stats, "contractViolations", parsed.error.message);
        if (foreignData(text, other))
          note(stats, "crossPrincipalAnswers", "preview of another principal");
        const id = parsed.data.responseMeta.artifact.id;
        mine.push(id);
        if (mine.length > 20) mine.shift();
        shared[principal].ids.push(id);
        if (shared[principal].ids.length > 200) shared[principal].ids.shift();
      });
    } else if (choice < 0.17) {
      await guard(async () => {
        await client.callTool({ name: "small", arguments: {} });
        stats.smallCalls += 1;
      });
    } else if (choice < 0.22) {
      const theirs = shared[other].ids;
      if (theirs.length === 0) continue;
      await guard(async () => {
        stats.crossProbes += 1;
        const id = theirs[Math.floor(next() * theirs.length)];
        const answer = await query({ artifactId: id, ...VIEWS[Math.floor(next() * VIEWS.length)] });
        if (answer.ok || answer.code !== "INVALID_ARTIFACT_HANDLE") {
          note(
            stats,
            "crossPrincipalAnswers",
            `${principal} read ${other}'s ${id}: ${answer.code ?? "a page"}`,
          );
        }
      });
    } else if (choice < 0.25) {
      const cursors = shared[other].cursors;
      if (cursors.length === 0) continue;
      await guard(async () => {
        stats.crossCursorProbes += 1;
        const { view, cursor } = cursors[Math.floor(next() * cursors.length)];
        const answer = await query({ ...VIEWS[view], artifactId: mine[mine.length - 1], cursor });
        if (answer.ok) note(stats, "crossPrincipalAnswers", `${principal} used ${other}'s cursor`);
      });
    } else {
      await guard(async () => {
        const view = Math.floor(next() * VIEWS.length);
        const artifactId = mine[Math.floor(next() * mine.length)];
        let answer = await query({ ...VIEWS[view], artifactId });
        if (!answer.ok && answer.code === "INVALID_ARTIFACT_HANDLE") stats.ownArtifactsGone += 1;
        for (
          let page = 0;
          page < 3 && answer.ok && answer.envelope.responseMeta.nextCursor;
          page += 1
        ) {
          const cursor = answer.envelope.responseMeta.nextCursor;
          shared[principal].cursors.push({ view, cursor });
          if (shared[principal].cursors.length > 200) shared[principal].cursors.shift();
          answer = await query({ ...VIEWS[view], artifactId, cursor });
          stats.pagesFollowed += 1;
        }
      });
    }
  }
  await client.close();
}

/**
 * Runs the load and returns its report (also printed by run.mjs). The warm-up lasts until the
 * store is full (`warmUp: "full"`, the default: the first own artifact a client finds evicted,
 * at most 180 s), so the RSS after it is the steady state's start and the next `seconds` show
 * whether it holds; `warmUp: "fixed"` is the first runs' 10 s. Either way the RSS at 10 s is
 * reported too.
 */
export async function runHttpLoad({ clients = 50, seconds = 60, seed = 1, warmUp = "full" } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "bounded-mcp-soak-"));
  const tokens = { [`soak-token-alice-${seed}`]: "alice", [`soak-token-bob-${seed}`]: "bob" };
  const tokensFile = join(dir, "tokens.json");
  writeFileSync(tokensFile, JSON.stringify(tokens));
  const byPrincipal = Object.fromEntries(
    Object.entries(tokens).map(([token, name]) => [name, token]),
  );
  const proxy = await startProxy(tokensFile);
  const stats = newStats();
  const shared = { alice: { ids: [], cursors: [] }, bob: { ids: [], cursors: [] } };
  const started = Date.now();
  /** Clients run until `deadline`: the end of the warm-up plus `seconds`. */
  const phase = { deadline: Number.POSITIVE_INFINITY };
  let warm = null;
  let warmAt = null;
  let at10s = null;
  let countedFrom = null;
  // The RSS every 10 s: whether it levels off once the store and the caches hold their budgets.
  const timeline = [];
  const sampler = setInterval(() => {
    timeline.push(+(rssKiB(proxy.child.pid).rss / 1024).toFixed(1));
  }, 10_000);
  const endWarmUp = () => {
    if (warm !== null) return;
    warm = { ...rssKiB(proxy.child.pid), cpu: cpuSeconds(proxy.child.pid) };
    warmAt = (Date.now() - started) / 1_000;
    countedFrom = { ...stats, queryErrors: { ...stats.queryErrors } };
    phase.deadline = Date.now() + seconds * 1_000;
  };
  const fixedWarmUpMs = Math.min(WARM_UP_MS, seconds * 500);
  const tenSeconds = setTimeout(() => {
    at10s = rssKiB(proxy.child.pid);
    if (warmUp === "fixed") endWarmUp();
  }, fixedWarmUpMs);
  const fullCheck = setInterval(() => {
    if (
      warmUp === "full" &&
      (stats.ownArtifactsGone > 0 || Date.now() - started > FULL_WARM_UP_CAP_MS)
    ) {
      endWarmUp();
    }
  }, 250);
  if (warmUp === "fixed") {
    // The first runs' timing: the deadline counts from the start, the warm-up is inside it.
    phase.deadline = started + seconds * 1_000;
  }
  try {
    await Promise.all(
      Array.from({ length: clients }, (_, index) => {
        const principal = PRINCIPALS[index % 2];
        return runClient(
          index,
          principal,
          byPrincipal[principal],
          proxy.url,
          phase,
          shared,
          stats,
          seed,
        ).catch((error) =>
          note(stats, "protocolErrors", `client ${index}: ${error?.message ?? error}`),
        );
      }),
    );
    const end = { ...rssKiB(proxy.child.pid), cpu: cpuSeconds(proxy.child.pid) };
    const mib = (kib) => (kib === null ? null : +(kib / 1024).toFixed(1));
    return {
      clients,
      seconds: (Date.now() - started) / 1_000,
      warmUp,
      warmUpSeconds: warmAt,
      ...stats,
      countedLargeCalls: stats.largeCalls - (countedFrom?.largeCalls ?? 0),
      countedQueries: stats.queries - (countedFrom?.queries ?? 0),
      rssAfterWarmUpMiB: mib(warm?.rss ?? null),
      rssAt10sMiB: mib(at10s?.rss ?? null),
      countedProxyCpuSeconds: warm === null ? null : +(end.cpu - warm.cpu).toFixed(2),
      rssAtEndMiB: +(end.rss / 1024).toFixed(1),
      peakRssMiB: +(end.hwm / 1024).toFixed(1),
      rssEvery10sMiB: timeline,
      proxyLogLines:
        proxy
          .stderr()
          .split("\n")
          .filter((line) => line.trim() !== "").length - 1,
    };
  } finally {
    clearTimeout(tenSeconds);
    clearInterval(fullCheck);
    clearInterval(sampler);
    proxy.child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
}

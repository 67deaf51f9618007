import { describe, expect, it } from "vitest";
import { buildReport, formatValue, isMet, renderMarkdown, renderSvg } from "./render.js";
import { SECTIONS } from "./sections.js";

const machine = {
  cpuModel: "Test CPU",
  cores: 2,
  totalMemory: 8 * 1024 ** 3,
  os: "Debian test",
  node: "v20.0.0",
  date: "2026-12-01T15:00:00.000Z",
  commit: "abc123",
  loadBefore: [3.5, 2, 1],
  loadAfter: [4, 3, 2],
};
const run = {
  startedAt: "2026-12-01T15:00:00.000Z",
  steps: [
    {
      command: "cd bench/peers && tsx src/run.ts",
      section: "engine, cold",
      seconds: 125,
      exitCode: 0,
    },
  ],
};

function figure(name: string, median: number, extra: Record<string, unknown> = {}) {
  return {
    name,
    median,
    low: median * 0.9,
    high: median * 1.2,
    spread: "min-max",
    unit: "ms",
    n: 5,
    baseline: null,
    ratio: null,
    lowerIsBetter: true,
    ...extra,
  };
}

const enginePart = {
  section: "engine",
  part: "peers",
  title: "Warm page against peers",
  node: "v20.0.0",
  date: "2026-12-01T15:01:00.000Z",
  figures: [
    figure("DuckDB, loaded table (baseline)", 10),
    figure("engine", 8, { baseline: "DuckDB, loaded table (baseline)", ratio: 0.8 }),
    figure("jq | beyond", 400, { baseline: "DuckDB, loaded table (baseline)", ratio: 40 }),
  ],
  // The part claims "met: false" for a measure under the limit: the report recomputes it.
  targets: [
    {
      id: "warm-filtered-vs-duckdb",
      text: "warm page ≤ DuckDB",
      measured: 0.8,
      op: "<=",
      limit: 1,
      unit: "x",
      met: false,
      figure: "engine",
    },
    {
      id: "sort-top",
      text: "sort top ≤ 0.05x",
      measured: 0.061,
      op: "<=",
      limit: 0.05,
      unit: "x",
      met: true,
      figure: null,
    },
  ],
  notes: ["a <note>"],
};
const proxyPart = {
  section: "proxy",
  part: "bench",
  title: "Proxy",
  node: "v20.0.0",
  date: "2026-11-30T10:00:00.000Z",
  figures: [figure("proxy", 300, { baseline: "JSON.parse", ratio: 1.3 })],
  targets: [
    {
      id: "http-rate",
      text: "rate ≥ 0.9x",
      measured: 0.95,
      op: ">=",
      limit: 0.9,
      unit: "x",
      met: null,
      figure: null,
    },
    {
      id: "http-p99",
      text: "p99 ≤ 100 ms",
      measured: Number.NaN,
      op: "<=",
      limit: 100,
      unit: "ms",
      met: null,
      figure: null,
    },
    {
      id: "extra-one",
      text: "an extra target",
      measured: 2,
      op: ">=",
      limit: 3,
      unit: "x",
      met: true,
      figure: null,
    },
  ],
  notes: [],
};

const model = () => buildReport({ parts: [proxyPart, enginePart], machine, run });

describe("buildReport", () => {
  it("recomputes met from measured, op and limit, whatever the part said", () => {
    const engine = model().sections.find((section) => section.id === "engine");
    const byId = new Map(engine?.targets.map((target) => [target.id, target]));
    expect(byId.get("warm-filtered-vs-duckdb")?.met).toBe(true);
    expect(byId.get("sort-top")?.met).toBe(false);
    const proxy = model().sections.find((section) => section.id === "proxy");
    const proxyTargets = new Map(proxy?.targets.map((target) => [target.id, target]));
    expect(proxyTargets.get("http-rate")?.met).toBe(true);
    expect(proxyTargets.get("http-p99")?.met).toBeNull();
    expect(proxyTargets.get("extra-one")?.met).toBe(false);
  });

  it("takes a target from the first part that reports it and lists a second reading after", () => {
    const second = {
      ...proxyPart,
      part: "soak",
      targets: [{ ...proxyPart.targets[0], text: "rate again", measured: 0.5 }],
    };
    const proxy = buildReport({ parts: [second, proxyPart], machine, run }).sections.find(
      (section) => section.id === "proxy",
    );
    const rates = proxy?.targets.filter((target) => target.id === "http-rate");
    expect(rates?.map((target) => [target.measuredIn, target.met])).toEqual([
      ["bench", true],
      ["soak", false],
    ]);
  });

  it("lists every target a section defines, unmeasured ones with no figure", () => {
    const engine = model().sections.find((section) => section.id === "engine");
    const definitions = SECTIONS.find((section) => section.id === "engine")?.targets ?? [];
    expect(engine?.targets.map((target) => target.id)).toEqual(definitions.map((d) => d.id));
    const groupBy = engine?.targets.find((target) => target.id === "groupby");
    expect(groupBy).toMatchObject({ measured: null, met: null, measuredIn: null });
  });

  it("isMet compares both ways and refuses non-finite measures", () => {
    expect([
      isMet(1, "<=", 1),
      isMet(1.01, "<=", 1),
      isMet(0.9, ">=", 0.9),
      isMet(0.8, ">=", 0.9),
    ]).toEqual([true, false, true, false]);
    expect(isMet(Number.NaN, "<=", 1)).toBeNull();
    expect(isMet(null, "<=", 1)).toBeNull();
  });
});

describe("renderMarkdown", () => {
  it("is deterministic and independent of the order the parts come in", () => {
    const first = renderMarkdown(model());
    const again = renderMarkdown(buildReport({ parts: [enginePart, proxyPart], machine, run }));
    expect(again).toBe(first);
  });

  it("says a section without parts was not measured, and its targets too", () => {
    const text = renderMarkdown(model());
    const views = text.slice(text.indexOf("## Views: later pages"), text.indexOf("## Bounding"));
    expect(views).toContain("Not measured in this run.");
    expect(views).toContain(
      "| a later page ≤ 0.1 ms plus the page's own cost | issue 18 |  | not measured in this run |",
    );
    expect(views).toContain(
      "![Views: later pages: ratios to the baseline of the same run](bench/results/views.svg)",
    );
  });

  it("prints machine, load, duration, targets, figures with spread and ratio, and stale parts", () => {
    const text = renderMarkdown(model());
    expect(text).toContain("| CPU | Test CPU (2 cores) |");
    expect(text).toContain("| RAM | 8.0 GiB |");
    expect(text).toContain("**The machine was loaded** (load average up to 4.00 on 2 cores)");
    expect(text).toContain("The run took 2 min 5 s:");
    expect(text).toContain(
      "| Engine against its peers (warm) | warm page ≤ DuckDB | issue 18 | 0.800x | **met** |",
    );
    expect(text).toContain(
      "| Engine against its peers (warm) | sort top ≤ 0.05x | issue 13 | 0.061x | **not met** |",
    );
    expect(text).toContain("| p99 ≤ 100 ms | issue 18 | n/a | not measured (no finite figure) |");
    expect(text).toContain(
      "| engine | 8.00 ms | 7.20 ms – 9.60 ms | 5 | 0.800x of DuckDB, loaded table (baseline) |",
    );
    expect(text).toContain("| jq \\| beyond | 400 ms |");
    expect(text).toContain("### Proxy (from an earlier run, 2026-11-30T10:00:00.000Z)");
    expect(text).toContain("- a <note>");
  });
});

describe("renderSvg", () => {
  const engine = () => model().sections.find((section) => section.id === "engine") as never;

  it("draws one bar per figure with a ratio, the 1x line and the judged target's tick", () => {
    const svg = renderSvg(engine());
    expect(svg).toBe(renderSvg(engine()));
    expect(svg.match(/<rect /g)?.length).toBe(1 + 2);
    expect(svg).toContain("1x (baseline)");
    expect(svg).toContain('fill="#2e8b57"');
    expect(svg).toContain('stroke="#c0392b"');
    expect(svg).toContain("jq | beyond ÷ DuckDB, loaded table (baseline)");
    expect(svg).toContain("log scale, 0.100x to 100.0x");
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
  });

  it("escapes text and says when a section was not measured", () => {
    const views = model().sections.find((section) => section.id === "views") as never;
    expect(renderSvg(views)).toContain("not measured in this run");
    const odd = { ...(engine() as object), title: 'a <b> & "c"' } as never;
    expect(renderSvg(odd)).toContain("a &lt;b&gt; &amp; &quot;c&quot;");
  });
});

describe("formatValue", () => {
  it("formats each unit without the locale", () => {
    expect([
      formatValue(0.25, "ms"),
      formatValue(12.345, "ms"),
      formatValue(1234.5, "ms"),
      formatValue(0.0512, "x"),
      formatValue(12.34, "x"),
      formatValue(5 * 1024 * 1024, "B"),
      formatValue(1234567, "tokens"),
      formatValue(Number.NaN, "ms"),
    ]).toEqual(["250 µs", "12.35 ms", "1235 ms", "0.051x", "12.3x", "5.0 MiB", "1,234,567", "n/a"]);
  });
});

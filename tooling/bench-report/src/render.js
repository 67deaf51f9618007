// Pure rendering of one benchmark run: the parts every bench wrote, the machine and the run's
// record in, BENCHMARKS.md text and one SVG per section out. Same input, same bytes out (no
// clock, no locale, no randomness), so a re-run that measured the same figures changes nothing.

import { SECTIONS } from "./sections.js";

/** @param {number} value @param {string} unit */
export function formatValue(value, unit) {
  if (value === null || value === undefined || !Number.isFinite(value)) return "n/a";
  switch (unit) {
    case "ms": {
      const abs = Math.abs(value);
      if (abs >= 100) return `${value.toFixed(0)} ms`;
      if (abs >= 1) return `${value.toFixed(2)} ms`;
      return `${(value * 1000).toFixed(0)} µs`;
    }
    case "x":
      return `${value.toFixed(Math.abs(value) >= 10 ? 1 : 3)}x`;
    case "B": {
      const units = ["B", "KiB", "MiB", "GiB"];
      let scaled = value;
      let at = 0;
      while (Math.abs(scaled) >= 1024 && at < units.length - 1) {
        scaled /= 1024;
        at++;
      }
      return `${scaled.toFixed(at === 0 ? 0 : 1)} ${units[at]}`;
    }
    case "tokens":
    case "count":
      return groupDigits(Math.round(value));
    case "req/s":
      return `${value.toFixed(0)} req/s`;
    case "%":
      return `${value.toFixed(1)}%`;
    default:
      return `${Number(value.toPrecision(4))} ${unit}`.trim();
  }
}

/** 1234567 → "1,234,567", without the locale machinery (deterministic everywhere). */
function groupDigits(integer) {
  const sign = integer < 0 ? "-" : "";
  const digits = String(Math.abs(integer));
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Whether a measured value meets a limit; null when there is no finite measure. */
export function isMet(measured, op, limit) {
  if (typeof measured !== "number" || !Number.isFinite(measured)) return null;
  return op === ">=" ? measured >= limit : measured <= limit;
}

/**
 * The report model: every section with its parts (sorted by name) and its targets, each target
 * either measured (met recomputed here from measured, op and limit, whatever the part said) or
 * not measured in this run. Targets a part reports that the section does not list are kept.
 */
export function buildReport({ parts, machine, run, sections = SECTIONS }) {
  const built = sections.map((section) => {
    const own = parts
      .filter((part) => part.section === section.id)
      .sort((a, b) => (a.part < b.part ? -1 : a.part > b.part ? 1 : 0));
    // The first part (by name) that reports a target judges it; another part's reading of the
    // same target is listed after the section's own targets.
    const reported = new Map();
    const again = [];
    for (const part of own) {
      for (const target of part.targets ?? []) {
        if (reported.has(target.id)) again.push({ ...target, part: part.part });
        else reported.set(target.id, { ...target, part: part.part });
      }
    }
    const listed = section.targets.map((definition) => {
      const found = reported.get(definition.id);
      reported.delete(definition.id);
      if (found === undefined)
        return { ...definition, measured: null, met: null, measuredIn: null };
      const op = found.op ?? definition.op;
      const limit = found.limit ?? definition.limit;
      return {
        ...definition,
        text: found.text ?? definition.text,
        op,
        limit,
        unit: found.unit ?? definition.unit,
        measured: found.measured,
        met: isMet(found.measured, op, limit),
        figure: found.figure ?? null,
        measuredIn: found.part,
      };
    });
    const extra = [...reported.values(), ...again].map((target) => ({
      ...target,
      from: "",
      met: isMet(target.measured, target.op, target.limit),
      measuredIn: target.part,
    }));
    return { ...section, parts: own, targets: [...listed, ...extra] };
  });
  return { machine, run, sections: built };
}

const escapeCell = (text) => String(text).replaceAll("|", "\\|").replaceAll("\n", " ");

function table(header, rows) {
  return [
    `| ${header.join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...rows.map((cells) => `| ${cells.map(escapeCell).join(" | ")} |`),
  ].join("\n");
}

function verdict(target) {
  if (target.measuredIn === null) return "not measured in this run";
  if (target.met === null) return "not measured (no finite figure)";
  return target.met ? "**met**" : "**not met**";
}

function figureRow(figure) {
  const spread =
    figure.low === null || figure.high === null
      ? "not recorded"
      : `${formatValue(figure.low, figure.unit)} – ${formatValue(figure.high, figure.unit)}`;
  const ratio =
    figure.ratio === null || figure.ratio === undefined
      ? figure.baseline === null
        ? ""
        : "n/a"
      : `${formatValue(figure.ratio, "x")} of ${figure.baseline}`;
  return [
    figure.name,
    formatValue(figure.median, figure.unit),
    spread,
    figure.n === null || figure.n === undefined ? "" : String(figure.n),
    ratio,
  ];
}

/** The file name of a section's chart, relative to the repository root. */
export const chartPath = (sectionId) => `bench/results/${sectionId}.svg`;

function renderSection(section, run) {
  const lines = [`## ${section.title}`, "", section.intro, ""];
  lines.push(`Run alone: ${section.commands.map((command) => `\`${command}\``).join(", ")}.`, "");
  lines.push(
    `![${section.title}: ratios to the baseline of the same run](${chartPath(section.id)})`,
    "",
  );
  if (section.targets.length > 0) {
    lines.push(
      table(
        ["target", "from", "measured", "met?"],
        section.targets.map((target) => [
          target.text,
          target.from,
          target.measuredIn === null ? "" : formatValue(target.measured, target.unit),
          verdict(target),
        ]),
      ),
      "",
    );
  }
  if (section.parts.length === 0) {
    lines.push("Not measured in this run.", "");
    return lines.join("\n");
  }
  for (const part of section.parts) {
    const stale =
      run?.startedAt !== undefined && part.date < run.startedAt
        ? ` (from an earlier run, ${part.date})`
        : "";
    lines.push(`### ${part.title}${stale}`, "");
    if ((part.figures ?? []).length > 0) {
      lines.push(
        table(
          ["figure", "median", "spread (min – max)", "n", "ratio (of medians)"],
          part.figures.map(figureRow),
        ),
        "",
      );
    }
    for (const extra of part.tables ?? []) {
      lines.push(`${extra.title}:`, "", table(extra.header, extra.rows), "");
    }
    for (const note of part.notes ?? []) lines.push(`- ${note}`);
    if ((part.notes ?? []).length > 0) lines.push("");
  }
  return lines.join("\n");
}

function renderHeader(report) {
  const { machine, run } = report;
  const lines = [
    "# Benchmarks",
    "",
    "<!-- Generated by `pnpm bench` (or `pnpm bench:report` from the parts in bench/results/parts/). Do not edit by hand. -->",
    "",
    "Every figure is a median with its spread (min – max of the samples) and, where it has one, a ratio to a baseline measured in the same run; systems are interleaved per round. Figures from one machine under one load: compare the ratios, not the absolute times. How to run: [tooling/bench-report/README.md](tooling/bench-report/README.md).",
    "",
  ];
  if (machine !== undefined) {
    lines.push(
      table(
        ["machine", ""],
        [
          ["date", machine.date ?? ""],
          ["git commit", machine.commit ?? ""],
          ["CPU", `${machine.cpuModel ?? ""} (${machine.cores ?? "?"} cores)`],
          ["RAM", formatValue(machine.totalMemory, "B")],
          ["OS", machine.os ?? ""],
          ["Node", machine.node ?? ""],
          [
            "load average (1, 5, 15 min) before",
            (machine.loadBefore ?? []).map((v) => v.toFixed(2)).join(", "),
          ],
          ["load average after", (machine.loadAfter ?? []).map((v) => v.toFixed(2)).join(", ")],
        ],
      ),
      "",
    );
    const busiest = Math.max(...(machine.loadBefore ?? [0]), ...(machine.loadAfter ?? [0]));
    if (busiest > (machine.cores ?? 1)) {
      lines.push(
        `**The machine was loaded** (load average up to ${busiest.toFixed(2)} on ${machine.cores} cores): absolute times are inflated and noisy; ratios within one run are the figures to read.`,
        "",
      );
    }
  }
  if (run?.steps !== undefined && run.steps.length > 0) {
    const total = run.steps.reduce((sum, step) => sum + step.seconds, 0);
    lines.push(
      `The run took ${formatDuration(total)}:`,
      "",
      table(
        ["step", "section", "seconds", "outcome"],
        run.steps.map((step) => [
          `\`${step.command}\``,
          step.section,
          step.seconds.toFixed(0),
          step.exitCode === 0
            ? "ok"
            : step.skipped
              ? `skipped: ${step.skipped}`
              : `FAILED (exit ${step.exitCode})`,
        ]),
      ),
      "",
    );
  }
  const all = report.sections.flatMap((section) =>
    section.targets.map((target) => [section, target]),
  );
  if (all.length > 0) {
    lines.push(
      "## Targets",
      "",
      table(
        ["section", "target", "from", "measured", "met?"],
        all.map(([section, target]) => [
          section.title,
          target.text,
          target.from,
          target.measuredIn === null ? "" : formatValue(target.measured, target.unit),
          verdict(target),
        ]),
      ),
      "",
    );
  }
  return lines.join("\n");
}

function formatDuration(seconds) {
  const minutes = Math.floor(seconds / 60);
  return minutes === 0
    ? `${seconds.toFixed(0)} s`
    : `${minutes} min ${(seconds - minutes * 60).toFixed(0)} s`;
}

/** BENCHMARKS.md for a report model from buildReport. */
export function renderMarkdown(report) {
  const parts = [
    renderHeader(report),
    ...report.sections.map((section) => renderSection(section, report.run)),
  ];
  return `${parts
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}

const escapeXml = (text) =>
  String(text)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");

const clip = (text, length) => (text.length <= length ? text : `${text.slice(0, length - 1)}…`);
const num = (value) => Number(value.toFixed(2));

/**
 * One section's chart: a horizontal bar per figure that has a ratio (log scale when the ratios
 * span more than 20x), a line at 1x (the baseline), and each target's limit as a red tick on the
 * bar of the figure it judges; bars of a judged figure are green when met, red when not. A
 * section without ratios gets a chart that says it was not measured.
 */
export function renderSvg(section) {
  const bars = section.parts.flatMap((part) =>
    (part.figures ?? [])
      .filter(
        (figure) =>
          typeof figure.ratio === "number" && Number.isFinite(figure.ratio) && figure.ratio > 0,
      )
      .map((figure) => ({ ...figure, part: part.part })),
  );
  const width = 980;
  const labelWidth = 540;
  const plotWidth = 330;
  const rowHeight = 22;
  const top = 40;
  const height = top + Math.max(bars.length, 1) * rowHeight + 40;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">${escapeXml(section.title)}: ratio to the baseline of the same run</text>`,
  ];
  if (bars.length === 0) {
    out.push(
      `<text x="10" y="${top + 14}" fill="#666666">not measured in this run</text>`,
      "</svg>",
    );
    return `${out.join("\n")}\n`;
  }
  const ticks = section.targets.filter(
    (target) =>
      target.measuredIn !== null && target.unit === "x" && typeof target.figure === "string",
  );
  const values = [1, ...bars.map((bar) => bar.ratio), ...ticks.map((target) => target.limit)];
  const low = Math.min(...values);
  const high = Math.max(...values);
  const logarithmic = high / low > 20;
  const lowEdge = logarithmic ? 10 ** Math.floor(Math.log10(low)) : 0;
  const highEdge = logarithmic ? 10 ** Math.ceil(Math.log10(high)) : high * 1.1;
  const x = (value) =>
    labelWidth +
    (logarithmic
      ? ((Math.log10(value) - Math.log10(lowEdge)) / (Math.log10(highEdge) - Math.log10(lowEdge))) *
        plotWidth
      : (value / highEdge) * plotWidth);
  const bottom = top + bars.length * rowHeight;
  bars.forEach((bar, index) => {
    const y = top + index * rowHeight;
    const judged = ticks.find((target) => target.figure === bar.name);
    const color = judged === undefined ? "#4c78a8" : judged.met ? "#2e8b57" : "#c0392b";
    const start = logarithmic ? labelWidth : x(0);
    out.push(
      `<text x="${labelWidth - 6}" y="${y + 15}" text-anchor="end">${escapeXml(clip(`${bar.name} ÷ ${bar.baseline}`, 84))}</text>`,
      `<rect x="${num(start)}" y="${y + 4}" width="${num(Math.max(1, x(bar.ratio) - start))}" height="${rowHeight - 8}" fill="${color}"/>`,
      `<text x="${num(x(bar.ratio) + 4)}" y="${y + 15}">${escapeXml(formatValue(bar.ratio, "x"))}</text>`,
    );
    if (judged !== undefined) {
      out.push(
        `<line x1="${num(x(judged.limit))}" x2="${num(x(judged.limit))}" y1="${y + 1}" y2="${y + rowHeight - 1}" stroke="#c0392b" stroke-width="2"/>`,
      );
    }
  });
  out.push(
    `<line x1="${num(x(1))}" x2="${num(x(1))}" y1="${top - 4}" y2="${bottom + 4}" stroke="#333333" stroke-dasharray="4 3"/>`,
    `<text x="${num(x(1))}" y="${bottom + 18}" text-anchor="middle">1x (baseline)</text>`,
    `<text x="${labelWidth}" y="${bottom + 34}" fill="#666666">${logarithmic ? `log scale, ${formatValue(lowEdge, "x")} to ${formatValue(highEdge, "x")}` : `linear scale, 0 to ${formatValue(highEdge, "x")}`}; red tick: the target's limit on the bar it judges</text>`,
    "</svg>",
  );
  return `${out.join("\n")}\n`;
}

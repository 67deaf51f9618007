/** One question's outcome. */
export interface QuestionRow {
  id: string;
  question: string;
  source: string;
  server: "n8n" | "files";
  /** The §9 query powers the script used, comma-separated ("" for none). */
  uses: string;
  calls: number;
  rawTokens: number;
  boundedTokens: number;
  correct: boolean;
  error?: string;
}

/** One source's sizes: the raw result and the envelope that replaced it. */
export interface SourceRow {
  source: string;
  server: "n8n" | "files";
  rawBytes: number;
  rawTokens: number;
  envelopeBytes: number;
  envelopeTokens: number;
}

/** tools/list of one server, as the model reads it, direct and through its bounded app. */
export interface ToolsRow {
  server: string;
  directTokens: number;
  boundedTokens: number;
}

/** Everything one run measured. */
export interface ContextReport {
  tokenizer: string;
  versions: Record<string, string>;
  questions: QuestionRow[];
  sources: SourceRow[];
  tools: ToolsRow[];
}

/** Raw and bounded tokens and correct answers over some rows. */
export function totals(rows: readonly QuestionRow[]) {
  const raw = rows.reduce((sum, row) => sum + row.rawTokens, 0);
  const bounded = rows.reduce((sum, row) => sum + row.boundedTokens, 0);
  return {
    questions: rows.length,
    correct: rows.filter((row) => row.correct).length,
    calls: rows.reduce((sum, row) => sum + row.calls, 0),
    rawTokens: raw,
    boundedTokens: bounded,
    saving: raw === 0 ? 0 : 1 - bounded / raw,
  };
}

function medianOf(values: readonly number[]): number {
  const ordered = [...values].sort((a, b) => a - b);
  const middle = ordered.length >> 1;
  return ordered.length % 2 === 1
    ? (ordered[middle] as number)
    : ((ordered[middle - 1] as number) + (ordered[middle] as number)) / 2;
}

const number = (value: number) => value.toLocaleString("en-US");
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

function table(header: string[], rows: string[][]): string {
  const lines = [
    `| ${header.join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...rows.map((cells) => `| ${cells.join(" | ")} |`),
  ];
  return lines.join("\n");
}

/** The report as Markdown: totals, the tools/list overhead, sources, then every question. */
export function renderMarkdown(report: ContextReport): string {
  const n8n = totals(report.questions.filter((row) => row.server === "n8n"));
  const files = totals(report.questions.filter((row) => row.server === "files"));
  const all = totals(report.questions);
  const totalRows = [
    ["n8n-mcp results", n8n],
    ["server-filesystem files", files],
    ["all", all],
  ] as const;
  const sections = [
    `Tokens counted with ${report.tokenizer}; ${Object.entries(report.versions)
      .map(([name, version]) => `${name} ${version}`)
      .join(", ")}.`,
    table(
      [
        "questions on",
        "answered correctly",
        "query calls",
        "raw tokens",
        "bounded tokens",
        "fewer tokens",
      ],
      totalRows.map(([label, sum]) => [
        label,
        `${sum.correct}/${sum.questions}`,
        number(sum.calls),
        number(sum.rawTokens),
        number(sum.boundedTokens),
        percent(sum.saving),
      ]),
    ),
    "One-time tools/list (paid once per session, before any result):",
    table(
      ["server", "direct", "bounded", "overhead"],
      report.tools.map((row) => [
        row.server,
        number(row.directTokens),
        number(row.boundedTokens),
        `+${number(row.boundedTokens - row.directTokens)}`,
      ]),
    ),
    `Per result (the envelope replaces the raw text; bytes of the text block; median envelope ${number(medianOf(report.sources.map((row) => row.envelopeBytes)))} bytes):`,
    table(
      ["result", "raw bytes", "raw tokens", "envelope bytes", "envelope tokens"],
      report.sources.map((row) => [
        row.source,
        number(row.rawBytes),
        number(row.rawTokens),
        number(row.envelopeBytes),
        number(row.envelopeTokens),
      ]),
    ),
    "Per question (bounded = the envelope, plus every query's arguments and answer):",
    table(
      ["#", "question", "result", "calls", "raw", "bounded", "of raw", "correct"],
      report.questions.map((row, index) => [
        String(index + 1),
        `${row.question}${row.uses === "" ? "" : ` (${row.uses})`}`,
        row.source,
        String(row.calls),
        number(row.rawTokens),
        number(row.boundedTokens),
        percent(row.boundedTokens / row.rawTokens),
        row.correct ? "yes" : `**no**${row.error === undefined ? "" : ` (${row.error})`}`,
      ]),
    ),
  ];
  return `${sections.join("\n\n")}\n`;
}

/**
 * The summary an app README shows: the totals, the tools/list overhead and the per-result sizes,
 * for one server's results (`n8n` or `files`) or all.
 */
export function renderSummary(report: ContextReport, server?: "n8n" | "files"): string {
  const rows = report.questions.filter((row) => server === undefined || row.server === server);
  const sum = totals(rows);
  const sources = report.sources.filter((row) => server === undefined || row.server === server);
  const tools = report.tools.filter(
    (row) => server === undefined || row.server.includes(server === "n8n" ? "n8n" : "filesystem"),
  );
  const median = medianOf(sources.map((row) => row.envelopeBytes));
  const overhead = tools.reduce((total, row) => total + row.boundedTokens - row.directTokens, 0);
  const verdict = (met: boolean) => (met ? "met" : "**not met**");
  const targets =
    `Targets: at least 98% fewer tokens than the raw results (measured ${percent(sum.saving)}, ` +
    `${verdict(sum.saving >= 0.98)}); every answer correct (${sum.correct}/${sum.questions}, ` +
    `${verdict(sum.correct === sum.questions)}); median envelope at most 3 KiB (${number(median)} ` +
    `bytes, ${verdict(median <= 3072)}). With the tools/list overhead paid once (one session for ` +
    `all ${sum.questions} questions): ${percent(1 - (sum.boundedTokens + overhead) / sum.rawTokens)} fewer.`;
  return [
    targets,
    table(
      [
        "questions",
        "answered correctly",
        "query calls",
        "raw tokens",
        "bounded tokens",
        "fewer tokens",
      ],
      [
        [
          String(sum.questions),
          `${sum.correct}/${sum.questions}`,
          number(sum.calls),
          number(sum.rawTokens),
          number(sum.boundedTokens),
          percent(sum.saving),
        ],
      ],
    ),
    table(
      ["tools/list (once per session)", "direct", "bounded", "overhead"],
      tools.map((row) => [
        row.server,
        number(row.directTokens),
        number(row.boundedTokens),
        `+${number(row.boundedTokens - row.directTokens)}`,
      ]),
    ),
    table(
      ["result", "raw bytes", "raw tokens", "envelope bytes", "envelope tokens"],
      sources.map((row) => [
        row.source,
        number(row.rawBytes),
        number(row.rawTokens),
        number(row.envelopeBytes),
        number(row.envelopeTokens),
      ]),
    ),
  ].join("\n\n");
}

/** `text` with the part between `<!-- context-bench:start -->` and its end marker replaced. */
export function replaceMarked(text: string, content: string): string {
  const start = "<!-- context-bench:start -->";
  const end = "<!-- context-bench:end -->";
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to < from) return text;
  return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}

// The context benchmark: how many tokens a model reads to answer questions over real tool
// results, raw (the result in its context) vs through the built bounded apps (the envelope, then
// query_response_artifact calls). Build first (`pnpm build`), then `pnpm --filter
// @bounded-mcp/context-bench bench`. Writes results/context.md and results/context.json, and the
// summaries in the READMEs of n8n-mcp-bounded and bounded-mcp-proxy.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as results from "@bounded-mcp/bench-utils";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { readN8nMcpVersion } from "n8n-mcp-bounded";
import { writeFiles } from "./files.js";
import { createModelView, type Envelope, readableText } from "./model.js";
import { type Question, type Source, sameAnswer } from "./question.js";
import { EXTENSION_QUESTIONS } from "./questions/extensions.js";
import { FILE_QUESTIONS, fileSources } from "./questions/files.js";
import { N8N_QUESTIONS, N8N_SOURCES } from "./questions/n8n.js";
import {
  type ContextReport,
  type QuestionRow,
  renderMarkdown,
  renderSummary,
  replaceMarked,
  type SourceRow,
  type ToolsRow,
  totals,
} from "./report.js";
import { startServers } from "./servers.js";
import { countTokens, TOKENIZER } from "./tokens.js";

const require = createRequire(import.meta.url);
const version = (name: string): string =>
  (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")) as { version: string })
    .version;

async function toolsTokens(client: Client): Promise<number> {
  const { tools } = await client.listTools();
  return countTokens(JSON.stringify(tools));
}

async function call(client: Client, source: Source): Promise<CallToolResult> {
  return (await client.callTool({
    name: source.tool,
    arguments: source.arguments,
  })) as CallToolResult;
}

function firstText(result: CallToolResult): string {
  const [first] = result.content;
  if (first?.type !== "text") throw new Error("expected a text block");
  return first.text;
}

const dir = realpathSync(mkdtempSync(join(tmpdir(), "context-bench-")));
writeFiles(dir);
const servers = await startServers(dir);
const questions: QuestionRow[] = [];
const sources: SourceRow[] = [];
const tools: ToolsRow[] = [
  {
    server: `n8n-mcp ${readN8nMcpVersion()} / n8n-mcp-bounded`,
    directTokens: await toolsTokens(servers.n8nDirect),
    boundedTokens: await toolsTokens(servers.n8nBounded),
  },
  {
    server: "server-filesystem / bounded-mcp-proxy",
    directTokens: await toolsTokens(servers.filesDirect),
    boundedTokens: await toolsTokens(servers.filesBounded),
  },
];
const allQuestions: Question[] = [...N8N_QUESTIONS, ...FILE_QUESTIONS, ...EXTENSION_QUESTIONS];
try {
  for (const source of [...N8N_SOURCES, ...fileSources(dir)]) {
    const direct = source.server === "n8n" ? servers.n8nDirect : servers.filesDirect;
    const bounded = source.server === "n8n" ? servers.n8nBounded : servers.filesBounded;
    const rawResult = await call(direct, source);
    const rawText = readableText(rawResult);
    const raw = JSON.parse(firstText(rawResult));
    const result = await call(bounded, source);
    const envelope = result.structuredContent as unknown as Envelope;
    if (envelope?.responseMeta?.artifact === undefined) {
      throw new Error(`${source.label} was not bounded`);
    }
    const rawTokens = countTokens(rawText);
    const envelopeTokens = countTokens(readableText(result));
    sources.push({
      source: source.label,
      server: source.server,
      rawBytes: Buffer.byteLength(rawText),
      rawTokens,
      envelopeBytes: Buffer.byteLength(firstText(result)),
      envelopeTokens,
    });
    for (const question of allQuestions.filter((each) => each.source === source.id)) {
      const { view, ledger } = createModelView(bounded, envelope, envelopeTokens);
      const truth = question.truth(raw);
      let answer: unknown;
      let error: string | undefined;
      try {
        answer = await question.answer(view);
      } catch (caught) {
        error = caught instanceof Error ? caught.message : String(caught);
      }
      const correct = error === undefined && sameAnswer(answer, truth);
      questions.push({
        id: question.id,
        question: question.text,
        source: source.label,
        server: source.server,
        uses: (question.uses ?? []).join(", "),
        calls: ledger.calls,
        rawTokens,
        boundedTokens: ledger.envelopeTokens + ledger.callTokens,
        correct,
        ...(correct
          ? {}
          : {
              error:
                error ??
                `answered ${JSON.stringify(answer)?.slice(0, 120)}, truth ${JSON.stringify(truth)?.slice(0, 120)}`,
            }),
      });
      process.stderr.write(`${correct ? "ok " : "BAD"} ${question.id}\n`);
    }
  }
} finally {
  await servers.close();
  rmSync(dir, { recursive: true, force: true });
}

const report: ContextReport = {
  tokenizer: TOKENIZER,
  versions: {
    "n8n-mcp": readN8nMcpVersion(),
    "@modelcontextprotocol/server-filesystem": version("@modelcontextprotocol/server-filesystem"),
  },
  questions,
  sources,
  tools,
};
const out = new URL("../results/", import.meta.url);
mkdirSync(out, { recursive: true });
const markdown = renderMarkdown(report);
writeFileSync(new URL("context.md", out), markdown);
writeFileSync(new URL("context.json", out), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(markdown);
// The app READMEs show the summary of their own results between context-bench markers.
for (const [readme, server] of [
  ["../../../apps/n8n-mcp-bounded/README.md", "n8n"],
  ["../../../apps/proxy/README.md", "files"],
] as const) {
  const path = new URL(readme, import.meta.url);
  const text = readFileSync(path, "utf8");
  const updated = replaceMarked(text, renderSummary(report, server));
  if (updated !== text) writeFileSync(path, updated);
}
writeContextPart(report);
if (questions.some((row) => !row.correct)) process.exitCode = 1;

/** BENCHMARKS.md (tooling/bench-report): the totals and tools/list tables as one part. */
function writeContextPart(measured: ContextReport) {
  const groups = [
    ["n8n-mcp results", measured.questions.filter((row) => row.server === "n8n")],
    ["server-filesystem files", measured.questions.filter((row) => row.server === "files")],
    ["all", measured.questions],
  ] as const;
  const figures = groups.flatMap(([label, rows]) => {
    const sum = totals(rows);
    const raw = { name: `${label}: raw tokens`, median: sum.rawTokens };
    return [
      results.medianFigure(raw.name, sum.rawTokens, { unit: "tokens", n: sum.questions }),
      results.medianFigure(`${label}: bounded tokens`, sum.boundedTokens, {
        unit: "tokens",
        baseline: raw,
        n: sum.questions,
      }),
    ];
  });
  const count = (value: number) => value.toLocaleString("en-US");
  results.writeBenchResult("context", "tokens", {
    title: `Tokens to answer ${measured.questions.length} questions (${measured.tokenizer}; n8n-mcp ${measured.versions["n8n-mcp"]}, server-filesystem ${measured.versions["@modelcontextprotocol/server-filesystem"]})`,
    figures,
    tables: [
      {
        title:
          "The context benchmark's totals (sums over the questions; every question in bench/context/results/context.md)",
        header: [
          "questions on",
          "answered correctly",
          "query calls",
          "raw tokens",
          "bounded tokens",
          "fewer tokens",
        ],
        rows: groups.map(([label, rows]) => {
          const sum = totals(rows);
          return [
            label,
            `${sum.correct}/${sum.questions}`,
            String(sum.calls),
            count(sum.rawTokens),
            count(sum.boundedTokens),
            `${(sum.saving * 100).toFixed(1)}%`,
          ];
        }),
      },
      {
        title: "One-time tools/list tokens (paid once per session)",
        header: ["server", "direct", "bounded", "overhead"],
        rows: measured.tools.map((row) => [
          row.server,
          count(row.directTokens),
          count(row.boundedTokens),
          `+${count(row.boundedTokens - row.directTokens)}`,
        ]),
      },
    ],
    notes: ["Token counts are exact sums, not medians: each figure is one count (no spread)."],
  });
}

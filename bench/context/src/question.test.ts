import { describe, expect, it } from "vitest";
import { FILES } from "./files.js";
import { canonicalJson, isCut, lostKeys, sameAnswer } from "./question.js";
import { EXTENSION_QUESTIONS } from "./questions/extensions.js";
import { FILE_QUESTIONS, fileSources } from "./questions/files.js";
import { N8N_QUESTIONS, N8N_SOURCES } from "./questions/n8n.js";
import { replaceMarked } from "./report.js";

describe("the context benchmark's question checking", () => {
  it("compares answers by value, object key order aside, array order not", () => {
    expect(sameAnswer({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(sameAnswer([1, 2], [2, 1])).toBe(false);
    expect(sameAnswer(12, 26)).toBe(false);
    expect(sameAnswer(undefined, null)).toBe(false);
    expect(canonicalJson({ b: { d: 1, c: 2 }, a: 0 })).toBe('{"a":0,"b":{"c":2,"d":1}}');
  });

  it("reads the preview's omission markers", () => {
    expect(isCut(["a", { _omittedItems: 3 }])).toBe(true);
    expect(isCut(["a", "b"])).toBe(false);
    expect(lostKeys({ a: 1, _omittedKeys: 2 })).toBe(true);
    expect(lostKeys({ a: 1 })).toBe(false);
  });

  it("asks at least 30 questions, each about a known result, with distinct ids", () => {
    const questions = [...N8N_QUESTIONS, ...FILE_QUESTIONS, ...EXTENSION_QUESTIONS];
    const sources = new Set([...N8N_SOURCES, ...fileSources("/d")].map((source) => source.id));
    expect(questions.length).toBeGreaterThanOrEqual(30);
    expect(new Set(questions.map((question) => question.id)).size).toBe(questions.length);
    expect(questions.filter((question) => !sources.has(question.source))).toEqual([]);
  });

  it("computes a non-trivial truth for every file question from the generated files", () => {
    const documents: Record<string, unknown> = {
      catalog: FILES["catalog.json"](),
      accounts: FILES["accounts.json"](),
      orders: FILES["orders.json"](),
    };
    const fileQuestions = [...FILE_QUESTIONS, ...EXTENSION_QUESTIONS].filter(
      (question) => documents[question.source] !== undefined,
    );
    const trivial = fileQuestions.filter((question) => {
      const truth = question.truth(documents[question.source]);
      return truth === undefined || truth === 0 || (Array.isArray(truth) && truth.length === 0);
    });
    expect(trivial.map((question) => question.id)).toEqual([]);
    expect(canonicalJson(FILES["orders.json"]())).toBe(canonicalJson(documents.orders));
  });

  it("replaces only the marked part of a README, and nothing without markers", () => {
    const readme = "a\n<!-- context-bench:start -->\nold\n<!-- context-bench:end -->\nb";
    expect(replaceMarked(readme, "new")).toBe(
      "a\n<!-- context-bench:start -->\nnew\n<!-- context-bench:end -->\nb",
    );
    expect(replaceMarked("no markers", "new")).toBe("no markers");
  });
});

import { type ArtifactMeta, isExpiredArtifact } from "@bounded-mcp/stores";
import { createFsStore } from "@bounded-mcp/stores/fs";
import { describe, expect, it } from "vitest";
import { OFF_THREAD_HASH_MIN_BYTES } from "../src/bounding/encode-payload.js";
import { useFsAdapters } from "./support/fs-adapters.js";
import { TEST_NOW } from "./support/harness.js";

const { folder, adapterOver } = useFsAdapters("adapter-stored-verdict-");

/**
 * A JSON text block past OFF_THREAD_HASH_MIN_BYTES (the bounder tests it on its thread), or with
 * `small` under it and over inlineBytes (tested on the event loop while bounding).
 */
function rowsText(big: string, small = false): string {
  const rows = small ? 1000 : Math.ceil(OFF_THREAD_HASH_MIN_BYTES / 40) + 10;
  const text = `{"rows":[${Array.from({ length: rows }, (_, id) => `{"id":${id},"big":${big},"note":"row ${id}"}`).join(",")}]}`;
  expect(Buffer.byteLength(text) > OFF_THREAD_HASH_MIN_BYTES).toBe(!small);
  return text;
}

/** Bounds `text` in a fresh fs folder; returns the folder, the artifact id and the stored meta. */
async function bound(text: string) {
  const dir = await folder();
  const first = adapterOver(dir);
  const bounded = await first.boundResult({ content: [{ type: "text", text }] });
  const { id } = (bounded.structuredContent as { responseMeta: { artifact: { id: string } } })
    .responseMeta.artifact;
  const stored = await first.store.get(id);
  if (stored === null || isExpiredArtifact(stored)) throw new Error("the artifact was not stored");
  return { dir, id, meta: stored.meta, body: stored.body, first };
}

/** The answer text of a query for row 3's `big`, from a new adapter over `dir` (a cold read). */
async function coldAnswer(dir: string, id: string): Promise<string> {
  const answer = await adapterOver(dir).callQueryTool({
    artifactId: id,
    responsePath: "/rows/3/big",
  });
  return (answer.content[0] as { text: string }).text;
}

/** `meta` written again over the same body, with `exactCandidates` replaced (or removed). */
async function rewrite(dir: string, meta: ArtifactMeta, body: Buffer, verdict?: boolean) {
  const { exactCandidates: _, ...rest } = meta;
  const store = createFsStore({ dir, clock: () => TEST_NOW, sweepIntervalMs: 0 });
  await store.put(verdict === undefined ? rest : { ...rest, exactCandidates: verdict }, body);
  await store.dispose();
}

describe("the bounder's candidate verdict kept with the stored body (SPEC.md §10)", () => {
  it("records candidate: a second adapter over the same fs store answers inexact literals exactly", async () => {
    const { dir, id, meta, first } = await bound(rowsText("12345678901234567890"));
    const cached = await first.callQueryTool({ artifactId: id, responsePath: "/rows/3/big" });
    const cold = await coldAnswer(dir, id);
    expect({
      exactCandidates: meta.exactCandidates,
      exact: cold.includes('"response":12345678901234567890'),
    }).toEqual({
      exactCandidates: true,
      exact: true,
    });
    expect(cold).toBe((cached.content[0] as { text: string }).text);
  });

  it("records no candidate for a payload without one, and the cold read answers as the cache does", async () => {
    const { dir, id, meta, first } = await bound(rowsText("1234567"));
    const cached = await first.callQueryTool({ artifactId: id, responsePath: "/rows/3/big" });
    const cold = await coldAnswer(dir, id);
    expect({
      exactCandidates: meta.exactCandidates,
      answer: cold.includes('"response":1234567'),
    }).toEqual({
      exactCandidates: false,
      answer: true,
    });
    expect(cold).toBe((cached.content[0] as { text: string }).text);
  });

  it("records the verdict of a payload under 64 KiB too (tested while bounding), and answers it exactly cold", async () => {
    const candidate = await bound(rowsText("12345678901234567890", true));
    const plain = await bound(rowsText("1234567", true));
    expect({
      verdicts: [candidate.meta.exactCandidates, plain.meta.exactCandidates],
      exact: (await coldAnswer(candidate.dir, candidate.id)).includes(
        '"response":12345678901234567890',
      ),
      plain: (await coldAnswer(plain.dir, plain.id)).includes('"response":1234567'),
    }).toEqual({ verdicts: [true, false], exact: true, plain: true });
  });

  it("tests a body stored without the field (an older version's artifact) and answers it exactly", async () => {
    const { dir, id, meta, body } = await bound(rowsText("12345678901234567890"));
    await rewrite(dir, meta, body);
    const reread = createFsStore({ dir, clock: () => TEST_NOW, sweepIntervalMs: 0 });
    const head = await reread.head(id);
    await reread.dispose();
    expect(head !== null && !isExpiredArtifact(head) && "exactCandidates" in head).toBe(false);
    expect(await coldAnswer(dir, id)).toContain('"response":12345678901234567890');
  });

  it("(control) the read path trusts the verdict: a false one over a candidate body runs plain JSON.parse", async () => {
    // Why the verdict must be under the body's integrity (SECURITY.md): it picks the parser.
    const { dir, id, meta, body } = await bound(rowsText("12345678901234567890"));
    await rewrite(dir, meta, body, false);
    expect(await coldAnswer(dir, id)).toContain('"response":12345678901234567000');
  });
});

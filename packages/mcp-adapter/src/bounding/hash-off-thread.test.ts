import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { hashOffThread } from "./hash-off-thread.js";

const BUILT = fileURLToPath(new URL("../../dist/bounding/hash-off-thread.js", import.meta.url));

describe("hashOffThread", () => {
  it("answers the sha256 of the shared bytes", async () => {
    const bytes = new Uint8Array(new SharedArrayBuffer(1024 * 1024)).fill(7);
    const expected = createHash("sha256").update(bytes).digest("hex");
    expect(await hashOffThread(bytes)).toBe(expected);
  });

  it("does not keep hashed payloads alive: memory stays flat over many bounded results", () => {
    // Regression: the helper thread's tiny heap never collected, so each hashed payload's shared
    // buffer stayed alive and the process grew by one payload per bounded result. A child with
    // --expose-gc hashes 8 payloads of 20 MiB and reports how much its RSS grew.
    const script = `
      const { hashOffThread } = await import(${JSON.stringify(BUILT)});
      const size = 20 * 1024 * 1024;
      let first = 0;
      for (let i = 0; i < 8; i++) {
        const bytes = new Uint8Array(new SharedArrayBuffer(size)).fill(97);
        if ((await hashOffThread(bytes)) === null) throw new Error("no helper thread");
        await new Promise((resolve) => setTimeout(resolve, 20));
        globalThis.gc();
        if (i === 1) first = process.memoryUsage.rss();
      }
      process.stdout.write(String(process.memoryUsage.rss() - first));`;
    const grown = Number(
      execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], {
        encoding: "utf8",
      }),
    );
    expect(grown).toBeLessThan(3 * 20 * 1024 * 1024);
  });
});

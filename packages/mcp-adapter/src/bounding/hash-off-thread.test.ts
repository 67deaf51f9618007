import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { mayHoldInexactNumbers } from "@bounded-mcp/query-core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  factsOffThread,
  hashOffThread,
  testInexactOffThread,
  writeOnHashingThread,
} from "./hash-off-thread.js";

const BUILT = fileURLToPath(new URL("../../dist/bounding/hash-off-thread.js", import.meta.url));

/** `text` as UTF-8 in shared memory, as the bounder hands a payload to the thread. */
function sharedBytesOf(text: string): Uint8Array {
  const bytes = new Uint8Array(new SharedArrayBuffer(Buffer.byteLength(text)));
  Buffer.from(bytes.buffer).write(text, "utf8");
  return bytes;
}

describe("factsOffThread", () => {
  it.each([
    '{"id":12345678901234567890}',
    '{"huge":1e400,"name":"Zoë"}',
    '["😀",-0]',
    '{"é":"a:12345678901234567"}',
    '{"id":123456789012345,"name":"Kraków","price":-0.5}',
    '["9f00-2e668","\u00e9",1e21]',
  ])("tests %s for inexact candidates as mayHoldInexactNumbers tests its text", async (text) => {
    const bytes = sharedBytesOf(text);
    expect(await factsOffThread(bytes)).toEqual({
      sha256: createHash("sha256").update(bytes).digest("hex"),
      mayHoldInexactNumbers: mayHoldInexactNumbers(text),
    });
  });
});

/** JSON-ish texts with numbers of every form (long, exponents, -0), anchors and non-ASCII. */
const numberTexts = fc
  .array(
    fc.oneof(
      fc.double({ noNaN: true }).map(String),
      fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String),
      fc.constantFrom("-0", "-0.0", "-0.5", "1e400", "1e40", "-0e", '"a:', "\u00e9", "😀"),
      fc.constantFrom(...'0123456789.eE+-[]:,{} \n"x'),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(""));

describe("the thread's candidate test and the one in line", () => {
  it("give the same answer for fresh payloads (factsOffThread) and stored bodies (testInexactOffThread)", async () => {
    await fc.assert(
      fc.asyncProperty(numberTexts, async (text) => {
        const expected = mayHoldInexactNumbers(text);
        const fresh = await factsOffThread(sharedBytesOf(text));
        // A stored body is an ordinary Buffer (copied into shared memory for the thread).
        const stored = await testInexactOffThread(Buffer.from(text, "utf8"));
        expect({ fresh: fresh?.mayHoldInexactNumbers, stored }).toEqual({
          fresh: expected,
          stored: expected,
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe("hashOffThread", () => {
  it("answers the sha256 of the shared bytes", async () => {
    const bytes = new Uint8Array(new SharedArrayBuffer(1024 * 1024)).fill(7);
    const expected = createHash("sha256").update(bytes).digest("hex");
    expect(await hashOffThread(bytes)).toBe(expected);
  });

  it("changes nothing process-wide: no V8 flag is set (a new context has no gc)", () => {
    // Regression: the helper thread called v8.setFlagsFromString("--expose-gc"), which turned the
    // flag on for the whole process, so every later vm context of the host had a gc() global.
    const script = `
      const { hashOffThread } = await import(${JSON.stringify(BUILT)});
      const { runInNewContext } = await import("node:vm");
      const before = runInNewContext("typeof gc");
      const bytes = new Uint8Array(new SharedArrayBuffer(64 * 1024 * 1024)).fill(1);
      if ((await hashOffThread(bytes)) === null) throw new Error("no helper thread");
      if ((await hashOffThread(bytes)) === null) throw new Error("no helper thread");
      process.stdout.write(JSON.stringify({ before, after: runInNewContext("typeof gc") }));`;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    expect(JSON.parse(output)).toEqual({ before: "undefined", after: "undefined" });
  });

  it("does not keep hashed payloads alive: memory stays flat over many bounded results", () => {
    // Regression: the helper thread's tiny heap never collected, so each hashed payload's shared
    // buffer stayed alive and the process grew by one payload per bounded result. A child with
    // --expose-gc (for its own main thread) hashes 12 payloads of 20 MiB and reports how much its
    // RSS grew after the second: the old leak grew it by 10 payloads; a loaded machine's late
    // collections have left up to 3 alive. It also has to exit on its own, replaced threads included.
    const script = `
      const { hashOffThread } = await import(${JSON.stringify(BUILT)});
      const size = 20 * 1024 * 1024;
      let first = 0;
      for (let i = 0; i < 12; i++) {
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
    expect(grown).toBeLessThan(5 * 20 * 1024 * 1024);
  });
});

describe("writeOnHashingThread", () => {
  it("writes the shared bytes at the start of the descriptor, byte for byte, and rejects with the write's error code", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hash-write-"));
    try {
      const path = join(dir, "body");
      const bytes = new Uint8Array(new SharedArrayBuffer(3 * 1024 * 1024 + 17));
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) % 251;
      const fd = openSync(path, "wx", 0o600);
      try {
        await writeOnHashingThread(fd, bytes);
      } finally {
        closeSync(fd);
      }
      expect(readFileSync(path).equals(bytes)).toBe(true);
      writeFileSync(join(dir, "read-only"), "");
      const readOnly = openSync(join(dir, "read-only"), "r");
      try {
        await expect(writeOnHashingThread(readOnly, bytes)).rejects.toMatchObject({
          code: "EBADF",
        });
      } finally {
        closeSync(readOnly);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("writes and hashes a payload on one thread: the facts job after the write needs no thread of its own", () => {
    // Regression: the fs store started a one-shot thread per large body for its write beside the
    // hashing thread (two isolates, about 8 MiB and 30 ms of CPU each, per payload).
    const script = `
      const { writeOnHashingThread, factsOffThread } = await import(${JSON.stringify(BUILT)});
      const { openSync, closeSync, readFileSync, mkdtempSync, rmSync } = await import("node:fs");
      const { join } = await import("node:path");
      const { tmpdir } = await import("node:os");
      let started = 0;
      process.on("worker", () => { started += 1; });
      const dir = mkdtempSync(join(tmpdir(), "hash-write-"));
      const bytes = new Uint8Array(new SharedArrayBuffer(40 * 1024 * 1024)).fill(48);
      const fd = openSync(join(dir, "body"), "wx", 0o600);
      const [, facts] = await Promise.all([writeOnHashingThread(fd, bytes), factsOffThread(bytes)]);
      closeSync(fd);
      const same = readFileSync(join(dir, "body")).equals(bytes);
      rmSync(dir, { recursive: true, force: true });
      process.stdout.write(JSON.stringify({ started, same, hashed: facts !== null }));`;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    expect(JSON.parse(output)).toEqual({ started: 1, same: true, hashed: true });
  });
});

describe("the hashing thread's start", () => {
  it("starts when a large payload is announced on its diagnostics channel, and no replacement as soon as a retired thread answered", () => {
    // Regression: a retired thread's replacement was booted as soon as its last answer arrived,
    // about 8 MiB on top of the memory the answered call still held; now the next job or the
    // next announcement starts it.
    const script = `
      const { factsOffThread, LARGE_PAYLOAD_CHANNEL } = await import(${JSON.stringify(BUILT)});
      const { channel } = await import("node:diagnostics_channel");
      const started = [];
      process.on("worker", (worker) => started.push(worker));
      channel(LARGE_PAYLOAD_CHANNEL).publish({ upstream: "test" });
      // process emits "worker" on the next tick after a thread is created.
      await new Promise((resolve) => setImmediate(resolve));
      const announced = started.length;
      const bytes = new Uint8Array(new SharedArrayBuffer(40 * 1024 * 1024)).fill(48);
      if ((await factsOffThread(bytes)) === null) throw new Error("no helper thread");
      await new Promise((resolve) => started[0].once("exit", resolve));
      const afterRetiring = started.length;
      if ((await factsOffThread(bytes.subarray(0, 1024))) === null) throw new Error("no helper thread");
      process.stdout.write(JSON.stringify({ announced, afterRetiring, afterNextJob: started.length }));`;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    expect(JSON.parse(output)).toEqual({ announced: 1, afterRetiring: 1, afterNextJob: 2 });
  });
});

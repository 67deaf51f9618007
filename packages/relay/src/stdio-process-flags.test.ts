import { execFileSync } from "node:child_process";
import { constants, PerformanceObserver } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { collectAfterLargeLines } from "./linear-stdio-client-transport.js";
import {
  exposeFullCollection,
  prepareStdioProcess,
  STDIO_INTERRUPT_BUDGET,
  tierUpSooner,
} from "./stdio-process-flags.js";

afterEach(() => collectAfterLargeLines(undefined));

/** Resolves once an unreachable object is gone after `collect` (checked on a later turn). */
async function collectsGarbage(collect: () => void): Promise<boolean> {
  let value: object | undefined = { rows: Array.from({ length: 1000 }, (_, index) => index) };
  const reference = new WeakRef(value);
  value = undefined;
  // WeakRef targets stay alive until the end of the turn that created or read them.
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  await new Promise((resolve) => setImmediate(resolve));
  return reference.deref() === undefined;
}

describe("tierUpSooner (a stdio CLI's V8 interrupt budget)", () => {
  it("sets the budget, unless node was started with its own", () => {
    const set: string[] = [];
    expect(tierUpSooner(["--max-semi-space-size=16"], (flags) => set.push(flags))).toBe(true);
    expect(set).toEqual([`--interrupt-budget=${STDIO_INTERRUPT_BUDGET}`]);
    expect(tierUpSooner(["--interrupt-budget=100000"], (flags) => set.push(flags))).toBe(false);
    expect(set).toHaveLength(1);
  });

  it("names options this node's V8 has (setFlagsFromString ignores an unknown one)", () => {
    const options = execFileSync(process.execPath, ["--v8-options"], { encoding: "utf8" });
    expect(options).toMatch(/^\s+--interrupt-budget \(/m);
    expect(options).toMatch(/^\s+--expose-gc \(/m);
  });
});

describe("exposeFullCollection", () => {
  it("gives a full and a young collection without leaving a global gc in this or any later context", async () => {
    const hadGc = typeof (globalThis as { gc?: unknown }).gc === "function";
    const collect = exposeFullCollection();
    expect(collect).toBeTypeOf("function");
    expect(await collectsGarbage(() => collect?.("full"))).toBe(true);
    const kinds: number[] = [];
    // The entries arrive when node delivers them, later on a loaded machine: waited for, not
    // for one turn of the event loop.
    let observer: PerformanceObserver | undefined;
    const delivered = new Promise<void>((resolve) => {
      observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          kinds.push((entry as unknown as { detail: { kind: number } }).detail.kind);
        }
        if (kinds.length >= 2) resolve();
      });
    });
    observer?.observe({ entryTypes: ["gc"] });
    collect?.("young");
    collect?.("full");
    await delivered;
    observer?.disconnect();
    expect(kinds.slice(0, 2)).toEqual([
      constants.NODE_PERFORMANCE_GC_MINOR,
      constants.NODE_PERFORMANCE_GC_MAJOR,
    ]);
    expect(typeof (globalThis as { gc?: unknown }).gc === "function").toBe(hadGc);
    if (!hadGc) expect(runInNewContext("typeof gc")).toBe("undefined");
  });

  it("is undefined when V8 gives no gc (the flag cannot be set)", () => {
    if (typeof (globalThis as { gc?: unknown }).gc === "function") return;
    const set: string[] = [];
    expect(exposeFullCollection((flags) => set.push(flags))).toBeUndefined();
    expect(set).toEqual(["--expose-gc", "--no-expose-gc"]);
  });
});

describe("prepareStdioProcess", () => {
  it("sets the budget and the large-line collection; node's own budget wins", () => {
    const set: string[] = [];
    const record = (flags: string) => {
      set.push(flags);
      setFlagsFromString(flags.startsWith("--interrupt-budget") ? "--no-expose-gc" : flags);
    };
    expect(prepareStdioProcess([], record)).toEqual({ tieredUp: true, collectsLargeLines: true });
    expect(set[0]).toBe(`--interrupt-budget=${STDIO_INTERRUPT_BUDGET}`);
    expect(prepareStdioProcess(["--interrupt-budget=100"], record)).toEqual({
      tieredUp: false,
      collectsLargeLines: true,
    });
  });
});

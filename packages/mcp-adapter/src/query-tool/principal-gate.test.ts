import { describe, expect, it } from "vitest";
import { createPrincipalGate } from "./principal-gate.js";

/** Work that finishes when the test says so, recording when it started. */
function controlled(started: string[], name: string) {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    finish: () => finish(),
    work: async () => {
      started.push(name);
      await done;
      return name;
    },
  };
}

describe("createPrincipalGate", () => {
  it("runs at most the limit of one principal's work at once, the rest in arrival order", async () => {
    const gate = createPrincipalGate(2);
    const started: string[] = [];
    const jobs = ["a1", "a2", "a3", "a4"].map((name) => controlled(started, name));
    const results = jobs.map((job) => gate.run("A", job.work));
    await Promise.resolve();
    expect({ started: [...started], load: gate.load("A") }).toEqual({
      started: ["a1", "a2"],
      load: { running: 2, waiting: 2 },
    });
    jobs[1]!.finish();
    await results[1];
    await Promise.resolve();
    expect(started).toEqual(["a1", "a2", "a3"]);
    for (const job of jobs) job.finish();
    expect(await Promise.all(results)).toEqual(["a1", "a2", "a3", "a4"]);
    expect(gate.load("A")).toEqual({ running: 0, waiting: 0 });
  });

  it("never holds up another principal's work behind a principal at its limit", async () => {
    const gate = createPrincipalGate(1);
    const started: string[] = [];
    const held = controlled(started, "a1");
    const waiting = controlled(started, "a2");
    const other = controlled(started, "b1");
    const results = [gate.run("A", held.work), gate.run("A", waiting.work)];
    const bob = gate.run("B", other.work);
    await Promise.resolve();
    expect(started).toEqual(["a1", "b1"]);
    other.finish();
    expect(await bob).toBe("b1");
    held.finish();
    waiting.finish();
    expect(await Promise.all(results)).toEqual(["a1", "a2"]);
  });

  it("frees the slot of work that throws", async () => {
    const gate = createPrincipalGate(1);
    const failing = gate.run("A", async () => {
      throw new Error("query failed");
    });
    await expect(failing).rejects.toThrow("query failed");
    expect(await gate.run("A", async () => "next")).toBe("next");
  });

  it("runs everything at once without a limit", async () => {
    const gate = createPrincipalGate(null);
    const started: string[] = [];
    const jobs = ["a1", "a2", "a3"].map((name) => controlled(started, name));
    const results = jobs.map((job) => gate.run("A", job.work));
    await Promise.resolve();
    expect(started).toEqual(["a1", "a2", "a3"]);
    for (const job of jobs) job.finish();
    await Promise.all(results);
  });

  it("drops waiting work whose signal aborts, keeps the order of the rest, and frees nothing twice", async () => {
    const gate = createPrincipalGate(1);
    const started: string[] = [];
    const jobs = ["a1", "a2", "a3"].map((name) => controlled(started, name));
    const abort = new AbortController();
    const results = [
      gate.run("A", jobs[0]!.work),
      gate.run("A", jobs[1]!.work, abort.signal),
      gate.run("A", jobs[2]!.work),
    ];
    abort.abort(new Error("cancelled"));
    await expect(results[1]).rejects.toThrow("cancelled");
    expect(gate.load("A")).toEqual({ running: 1, waiting: 1 });
    jobs[0]!.finish();
    await results[0];
    await Promise.resolve();
    expect(started).toEqual(["a1", "a3"]);
    jobs[2]!.finish();
    expect(await results[2]).toBe("a3");
    expect(gate.load("A")).toEqual({ running: 0, waiting: 0 });
  });

  it("refuses work whose signal already aborted, and never interrupts running work", async () => {
    const gate = createPrincipalGate(1);
    const aborted = AbortSignal.abort(new Error("gone"));
    await expect(gate.run("A", async () => "never", aborted)).rejects.toThrow("gone");
    const abort = new AbortController();
    const running = gate.run("A", async () => "ran", abort.signal);
    abort.abort(new Error("late"));
    expect(await running).toBe("ran");
    expect(gate.load("A")).toEqual({ running: 0, waiting: 0 });
  });
});

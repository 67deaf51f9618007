import { describe, expect, it } from "vitest";
import { runInSlices, runToEnd, type Work } from "./work.js";

/** Work of `steps` steps that records the work time each yield received. */
function* recordingWork(steps: number, seen: number[]): Work<string> {
  for (let step = 0; step < steps; step += 1) seen.push(yield);
  return "done";
}

/** A clock the test moves: every read advances it by `step`. */
function createClock(step: number) {
  const clock = { time: 0, now: () => 0 };
  clock.now = () => {
    clock.time += step;
    return clock.time;
  };
  return clock;
}

describe("runToEnd", () => {
  it("runs every step and hands each yield the time since the start", () => {
    const seen: number[] = [];
    const clock = createClock(10);
    expect(runToEnd(recordingWork(3, seen), clock.now)).toBe("done");
    expect(seen).toEqual([10, 20, 30]);
  });

  it("hands every yield 0 without a clock", () => {
    const seen: number[] = [];
    expect(runToEnd(recordingWork(3, seen))).toBe("done");
    expect(seen).toEqual([0, 0, 0]);
  });
});

describe("runInSlices", () => {
  it("pauses once a slice has used sliceMs, and counts work time without the pauses", async () => {
    const seen: number[] = [];
    const clock = createClock(10);
    const pauses: number[] = [];
    const result = await runInSlices(recordingWork(12, seen), {
      now: clock.now,
      sliceMs: 50,
      pause: async () => {
        pauses.push(seen.length);
        clock.time += 1_000; // other callers' time: not work time
      },
    });
    expect(result).toBe("done");
    expect(pauses).toEqual([4, 9]);
    // Work time grows by 10 per read and never by the 1,000 ms spent paused.
    expect(seen.every((time, index) => index === 0 || time > (seen[index - 1] as number))).toBe(
      true,
    );
    expect(Math.max(...seen)).toBeLessThan(200);
  });

  it("lets another caller's work finish while a long one is paused", async () => {
    const order: string[] = [];
    function* long(): Work<void> {
      for (let step = 0; step < 100; step += 1) {
        yield;
        if (step === 1) order.push("long started");
      }
      order.push("long done");
    }
    function* cheap(): Work<void> {
      yield;
      order.push("cheap done");
    }
    const clock = createClock(10);
    const longRun = runInSlices(long(), { now: clock.now, sliceMs: 50 });
    const cheapRun = new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
      runInSlices(cheap(), { now: clock.now }),
    );
    await Promise.all([longRun, cheapRun]);
    expect(order).toEqual(["long started", "cheap done", "long done"]);
  });

  it("rejects with what the work throws", async () => {
    // biome-ignore lint/correctness/useYield: it fails before its first step.
    function* failing(): Work<void> {
      throw new Error("boom");
    }
    await expect(runInSlices(failing(), { now: () => 0 })).rejects.toThrow("boom");
  });
});

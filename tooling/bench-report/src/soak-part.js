// A step of `pnpm bench`: the soak's HTTP load (tooling/soak/http-load.mjs: the built proxy on
// streamable HTTP, 50 SDK clients of two principals, mixed calls and queries for 60 s) reported
// as the part proxy.soak: the proxy's RSS after the warm-up, at the end and its peak, and the
// RSS target of the steady proxy. Limits: the load is the soak's mix, not filtered queries
// alone, and it keeps no per-request latency, so the HTTP rate and p99 targets are not judged
// here. BENCH_SOAK_CLIENTS, BENCH_SOAK_SECONDS, BENCH_SOAK_SEED change the load.
import { medianFigure, targetOf, writeBenchResult } from "@bounded-mcp/bench-utils";
import { runHttpLoad } from "../../soak/http-load.mjs";

const clients = Number(process.env.BENCH_SOAK_CLIENTS ?? "50");
const seconds = Number(process.env.BENCH_SOAK_SECONDS ?? "60");
const seed = Number(process.env.BENCH_SOAK_SEED ?? "1");
const load = await runHttpLoad({ clients, seconds, seed });
const MIB = 1024 * 1024;
const warm = medianFigure(
  "proxy RSS after the warm-up (baseline)",
  (load.rssAfterWarmUpMiB ?? Number.NaN) * MIB,
  { unit: "B" },
);
const end = medianFigure(`proxy RSS after ${load.seconds.toFixed(0)} s`, load.rssAtEndMiB * MIB, {
  unit: "B",
  baseline: warm,
});
const peak = medianFigure("proxy peak RSS (VmHWM)", load.peakRssMiB * MIB, {
  unit: "B",
  baseline: warm,
});
const perSecond = (count) => count / load.seconds;
writeBenchResult("proxy", "soak", {
  title: `${clients} HTTP clients for ${seconds} s against the built proxy (the soak's mix, seed ${seed})`,
  figures: [
    warm,
    end,
    peak,
    medianFigure("queries per second (all clients)", perSecond(load.queries), { unit: "req/s" }),
    medianFigure("large calls per second", perSecond(load.largeCalls), { unit: "req/s" }),
    medianFigure("small calls per second", perSecond(load.smallCalls), { unit: "req/s" }),
  ],
  targets: [
    targetOf(
      "rss-steady",
      `proxy RSS after ${seconds} s of ${clients} HTTP clients ≤ 1.5x RSS after warm-up`,
      end.ratio ?? Number.NaN,
      "<=",
      1.5,
      "x",
      end.name,
    ),
  ],
  notes: [
    `protocol errors ${load.protocolErrors}, contract violations ${load.contractViolations}, cross-principal answers ${load.crossPrincipalAnswers}, own artifacts evicted ${load.ownArtifactsGone}; query error codes ${JSON.stringify(load.queryErrors)}.`,
    `Warm-up: ${load.warmUp === "fixed" ? "the first 10 s" : `until the store was full (the first own artifact found evicted), ${load.warmUpSeconds?.toFixed(0)} s; then ${seconds} s counted`}; RSS at 10 s ${load.rssAt10sMiB} MiB.`,
    "One load run: each figure is one reading (no spread).",
  ],
});
process.stdout.write(`${JSON.stringify({ ...load, samples: undefined })}\n`);

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  collectAfterLargeLines,
  type LargeLineCollectionKind,
} from "./linear-stdio-client-transport.js";

/**
 * V8's interrupt budget for a stdio CLI (the proxy's README, "Startup flags"): 4 KiB of bytecode
 * between tier-up checks instead of V8's 66 KiB. The per-call path runs each of its functions
 * once per call, so with the default budget most of them stay in the interpreter for thousands
 * of calls and are compiled one by one (on V8's helper threads) while calls are served; with
 * this one they are optimized within the first hundred or so calls. Measured with
 * bench/relay-call.ts (interleaved rounds, same run): the small call's median about 0.2-0.3x of
 * the pipe floor lower, the proxy's CPU per call about a quarter lower.
 */
export const STDIO_INTERRUPT_BUDGET = 4096;

/**
 * Sets V8's interrupt budget to {@link STDIO_INTERRUPT_BUDGET} unless node was started with its
 * own `--interrupt-budget` (in `execArgv`); true when it set it. V8 reads the budget at each
 * tier-up check, so setting it at startup takes effect for the per-call path. Limits: a V8
 * option (not a Node one); process-wide.
 */
export function tierUpSooner(
  execArgv: readonly string[],
  setFlags: (flags: string) => void = setFlagsFromString,
): boolean {
  if (execArgv.some((flag) => flag.startsWith("--interrupt-budget"))) return false;
  setFlags(`--interrupt-budget=${STDIO_INTERRUPT_BUDGET}`);
  return true;
}

/** V8's `gc` of a context it was exposed in: `gc()` collects fully, `{type: "minor"}` scavenges. */
type ExposedGc = (options?: { type: "minor" | "major" }) => void;

/**
 * A function that runs a garbage collection now, for the large-line collection of the stdio
 * transports (collectAfterLargeLines): `"full"` a mark-compact, `"young"` a scavenge. It is
 * node's own `gc` when node was started with `--expose-gc`, else the `gc` of a fresh vm context
 * created while V8's `--expose-gc` is set for that moment only (the flag is cleared right after,
 * so no later context, the main one included, gets a global `gc`). Undefined when V8 gives none.
 * Limits: process-wide flags are touched for the one context; the function keeps that small
 * context alive (about 0.2 MiB).
 */
export function exposeFullCollection(
  setFlags: (flags: string) => void = setFlagsFromString,
): ((kind: LargeLineCollectionKind) => void) | undefined {
  let gc: unknown = (globalThis as { gc?: unknown }).gc;
  if (typeof gc !== "function") {
    try {
      setFlags("--expose-gc");
      gc = runInNewContext("gc");
    } catch {
      gc = undefined;
    } finally {
      setFlags("--no-expose-gc");
    }
  }
  if (typeof gc !== "function") return undefined;
  const collect = gc as ExposedGc;
  return (kind) => (kind === "young" ? collect({ type: "minor" }) : collect());
}

/** What {@link prepareStdioProcess} set. */
export interface StdioProcessFlags {
  /** The interrupt budget was set (see tierUpSooner). */
  tieredUp: boolean;
  /** The stdio transports collect after each large line (see collectAfterLargeLines). */
  collectsLargeLines: boolean;
}

/**
 * The start of a stdio CLI's process, shared by bounded-mcp-proxy and n8n-mcp-bounded (one
 * client, one upstream, results of up to artifactMaxBytes): V8's interrupt budget
 * (tierUpSooner), and a full collection after each large upstream line (collectAfterLargeLines
 * with exposeFullCollection), so one large result's line is gone before its bounding parses the
 * payload, and its pipe chunks are freed as it is read. Measured with bench/big-call-through-proxy.mjs (bench/RESULTS.md): about the line's
 * size off the peak RSS of one 50 MiB call. Limits: process-wide; for an HTTP server with many
 * sessions and a large parse cache the collection costs more (about 1 ms per MiB of live heap),
 * so only the stdio CLIs call it.
 */
export function prepareStdioProcess(
  execArgv: readonly string[] = process.execArgv,
  setFlags: (flags: string) => void = setFlagsFromString,
): StdioProcessFlags {
  const tieredUp = tierUpSooner(execArgv, setFlags);
  const collect = exposeFullCollection(setFlags);
  collectAfterLargeLines(collect);
  return { tieredUp, collectsLargeLines: collect !== undefined };
}

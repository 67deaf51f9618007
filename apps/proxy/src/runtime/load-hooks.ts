import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { RedactHook } from "@bounded-mcp/mcp-adapter";
import { type ToolHooks, toolHooksFromModule } from "@bounded-mcp/relay";
import { UsageError } from "../options/usage-error.js";

/** What a `--hooks` module gives the proxy: per-tool hooks and, optionally, a redaction hook. */
export interface LoadedHooks {
  /** Hooks by tool name, run on that tool's relayed results (empty when the module has none). */
  tools: ToolHooks;
  /** Runs on every oversized payload before it is stored or previewed (the adapter's `redact`). */
  redact: RedactHook | undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The hooks of a loaded module: its default export (or the named exports) `{ tools?, redact? }`,
 * at least one of them. `redact` must be a function `(payloadText, context) => text`; `tools` is
 * checked by the relay's toolHooksFromModule. Throws a TypeError naming the problem.
 */
function hooksFromModule(loaded: unknown, source: string): LoadedHooks {
  const namespace = isObject(loaded) ? loaded : {};
  const candidate = isObject(namespace.default) ? namespace.default : namespace;
  const { redact } = candidate;
  if (redact !== undefined && typeof redact !== "function") {
    throw new TypeError(`hooks module ${source}: redact is not a function`);
  }
  if (redact !== undefined && candidate.tools === undefined) {
    return { tools: {}, redact: redact as RedactHook };
  }
  return { tools: toolHooksFromModule(loaded, source), redact: redact as RedactHook | undefined };
}

/**
 * Loads `--hooks <module>`: a file path (relative to the working directory) or a `file:` URL of
 * an ES module exporting `default { tools?: { <tool name>: (context) => void }, redact?:
 * (payloadText, context) => text }`. Tool hooks run on that tool's relayed results with the
 * per-call result SDK; `redact` runs on every oversized payload, of every tool, before it is
 * stored or previewed (a throw refuses that result with a bounded error). A module that cannot
 * be imported or has the wrong shape is a UsageError (exit code 2), not a failure at the first
 * call.
 */
export async function loadHooks(
  specifier: string,
  cwd: string = process.cwd(),
): Promise<LoadedHooks> {
  const url = specifier.startsWith("file:")
    ? specifier
    : pathToFileURL(isAbsolute(specifier) ? specifier : resolve(cwd, specifier)).href;
  let loaded: unknown;
  try {
    loaded = await import(url);
  } catch (error) {
    throw new UsageError(`--hooks ${specifier}: cannot import it (${(error as Error).message})`);
  }
  try {
    return hooksFromModule(loaded, specifier);
  } catch (error) {
    throw new UsageError(`--hooks ${specifier}: ${(error as Error).message}`);
  }
}

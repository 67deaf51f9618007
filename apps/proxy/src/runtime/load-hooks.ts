import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type ToolHooks, toolHooksFromModule } from "@bounded-mcp/relay";
import { UsageError } from "../options/usage-error.js";

/**
 * Loads `--hooks <module>`: a file path (relative to the working directory) or a `file:` URL of
 * an ES module exporting `default { tools: { <tool name>: (context) => void } }`, whose hooks
 * run on that tool's relayed results with the per-call result SDK. A module that cannot be
 * imported or has the wrong shape is a UsageError (exit code 2), not a failure at the first call.
 */
export async function loadHooks(
  specifier: string,
  cwd: string = process.cwd(),
): Promise<ToolHooks> {
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
    return toolHooksFromModule(loaded, specifier);
  } catch (error) {
    throw new UsageError(`--hooks ${specifier}: ${(error as Error).message}`);
  }
}

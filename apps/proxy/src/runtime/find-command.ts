import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, process.platform === "win32" ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where `command` would be run from, as spawn (no shell) looks it up: a path with a separator is
 * taken relative to `cwd`, a bare name is searched on PATH (with PATHEXT's extensions on
 * Windows). Null when there is no such executable file. Limits: a file that exists but fails to
 * execute (a bad interpreter line) is found; only spawning tells.
 */
export function findCommand(
  command: string,
  environment: Readonly<Record<string, string | undefined>> = process.env,
  cwd: string = process.cwd(),
): string | null {
  const windows = process.platform === "win32";
  const extensions = windows
    ? ["", ...(environment.PATHEXT ?? ".COM;.EXE;.BAT;.CMD").split(";").filter(Boolean)]
    : [""];
  const candidates = (base: string) => extensions.map((extension) => base + extension);
  if (isAbsolute(command) || /[\\/]/.test(command)) {
    return candidates(resolve(cwd, command)).find(isExecutableFile) ?? null;
  }
  const path = environment.PATH ?? environment.Path ?? "";
  for (const folder of path.split(delimiter).filter(Boolean)) {
    const found = candidates(join(folder, command)).find(isExecutableFile);
    if (found !== undefined) return found;
  }
  return null;
}

import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** Two principals' bearer tokens, as the --auth-tokens file maps them. */
export const TOKENS = { alice: "t0k3n-alice-0001", bob: "t0k3n-bob-00002" } as const;

/** Writes the --auth-tokens file into `dir` and returns its path. */
export function writeTokensFile(dir: string): string {
  const path = join(dir, "tokens.json");
  writeFileSync(path, JSON.stringify({ [TOKENS.alice]: "alice", [TOKENS.bob]: "bob" }));
  return path;
}

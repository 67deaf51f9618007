import { fileURLToPath } from "node:url";
import { defineConfig, mergeConfig } from "vitest/config";

/**
 * The one vitest configuration every package uses: node environment, tests beside the code and
 * under test/, a JSON report in test-results/ that tooling/scripts/test-summary.mjs adds up.
 * XDG_CACHE_HOME points at a temporary folder for the run (temporary-cache.js): no test writes to
 * the real user cache. Pass overrides for a package's own needs (longer timeouts for
 * process-level tests).
 */
export function createVitestConfig(overrides = {}) {
  return mergeConfig(
    defineConfig({
      test: {
        environment: "node",
        include: ["src/**/*.test.ts", "test/**/*.test.ts"],
        testTimeout: 20_000,
        hookTimeout: 30_000,
        globalSetup: [fileURLToPath(new URL("./temporary-cache.js", import.meta.url))],
        reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
      },
    }),
    overrides,
  );
}

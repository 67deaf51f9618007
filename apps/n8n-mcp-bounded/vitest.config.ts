import { createVitestConfig } from "@bounded-mcp/vitest-config";

export default createVitestConfig({ test: { testTimeout: 60_000, hookTimeout: 90_000 } });

import { createVitestConfig } from "@bounded-mcp/vitest-config";

export default createVitestConfig();

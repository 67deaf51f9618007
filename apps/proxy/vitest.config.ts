import { createVitestConfig } from "@bounded-mcp/vitest-config";

export default createVitestConfig({
  test: {
    // The end-to-end tests spawn the built CLI and real upstream servers (and s3rver, whose
    // ListObjectsV2 paging needs Node's legacy OpenSSL provider in the test worker).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    execArgv: ["--openssl-legacy-provider"],
  },
});

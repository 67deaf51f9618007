import { createVitestConfig } from "@bounded-mcp/vitest-config";

export default createVitestConfig({
  test: {
    // s3rver encrypts ListObjectsV2 continuation tokens with DES, which Node 17+ only offers with
    // the legacy OpenSSL provider; the flag goes to the test workers, not to user code.
    execArgv: ["--openssl-legacy-provider"],
  },
});

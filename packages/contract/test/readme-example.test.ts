import { expect, it } from "vitest";
import { createErrorResult, parseQueryRequest } from "../src/index.js";

it("behaves as the README example says", () => {
  const parsed = parseQueryRequest({ artifact_id: "Zq3xV9kLm2Pw8RtY6uNb4A", pageSize: 10 });
  expect(parsed.success).toBe(false);
  if (parsed.success) return;
  expect(parsed.error).toMatchObject({
    code: "INVALID_RESPONSE_CONTROLS",
    message: expect.stringMatching(
      /^Unknown argument "artifact_id": arguments are camelCase, use "artifactId" instead/,
    ),
    details: { field: "artifact_id", suggestedKey: "artifactId" },
  });
  const structuredContent = createErrorResult({ ...parsed.error, artifactId: null });
  expect(structuredContent).toMatchObject({
    artifactId: null,
    responsePath: null,
    response: { error: parsed.error },
    responseMeta: { contractVersion: 3, truncated: false, serializedBytes: 636, warning: null },
  });
});

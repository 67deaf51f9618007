/**
 * README.md's examples, read from the README at test time and imported as modules (only an
 * export of what they computed is added): if one of these fails, the README is wrong.
 */
import { writeReadmeBlock } from "@bounded-mcp/vitest-config/readme-blocks";
import { expect, it } from "vitest";
import { createErrorResult, type parseQueryRequest } from "../src/index.js";

type Parsed = ReturnType<typeof parseQueryRequest>;

/** Writes README block `name` with `after` appended and imports it. */
async function runBlock<T>(name: string, after: string): Promise<T> {
  const file = writeReadmeBlock({
    readme: new URL("../README.md", import.meta.url),
    name,
    packageDir: new URL("..", import.meta.url),
    after,
  });
  return (await import(file)) as T;
}

it("behaves as the README example says", async () => {
  const { parsed } = await runBlock<{ parsed: Parsed }>(
    "contract-error-result",
    "\nexport { parsed };\n",
  );
  expect(parsed.success).toBe(false);
  if (parsed.success) return;
  expect(parsed.error).toMatchObject({
    code: "INVALID_RESPONSE_CONTROLS",
    message: expect.stringMatching(
      /^Unknown argument "artifact_id": arguments are camelCase, use "artifactId" instead/,
    ),
    details: { field: "artifact_id", suggestedKey: "artifactId" },
  });
  // The block's structuredContent, as its comment shows it.
  expect(createErrorResult({ ...parsed.error, artifactId: null })).toMatchObject({
    artifactId: null,
    responsePath: null,
    response: { error: parsed.error },
    responseMeta: { contractVersion: 3, truncated: false, serializedBytes: 636, warning: null },
  });
});

it("behaves as the README example of §9 says", async () => {
  const { top, conflict, label } = await runBlock<{
    top: Parsed;
    conflict: Parsed;
    label: string;
  }>(
    "contract-extensions",
    '\nconst label = metricLabel({ op: "max", path: "/options", measure: "length" });\nexport { top, conflict, label };\n',
  );
  expect(top.success).toBe(true);
  expect(label).toBe("max(len(/options))");
  expect(conflict.success === false && conflict.error).toMatchObject({
    code: "INVALID_RESPONSE_CONTROLS",
    message: expect.stringMatching(/^Conflicting arguments: fields cannot /),
    details: {
      field: "fields",
      expected: expect.stringMatching(/^no fields with aggregate \(/),
      conflictsWith: "aggregate",
    },
  });
});

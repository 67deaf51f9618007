import { expect, it } from "vitest";
import { createErrorResult, metricLabel, parseQueryRequest } from "../src/index.js";

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

it("behaves as the README example of §9 says", () => {
  const top = parseQueryRequest({
    artifactId: "Zq3xV9kLm2Pw8RtY6uNb4A",
    responsePath: "/templates",
    filters: [
      {
        anyOf: [
          { path: "/name", op: "icontains", value: "openai" },
          { path: "/nodes", op: "icontains", value: "openai" },
        ],
      },
    ],
    aggregate: { groupBy: "/category", metrics: [{ op: "count" }, { op: "sum", path: "/views" }] },
    sort: [{ path: "sum(/views)", order: "desc" }],
  });
  expect(top.success).toBe(true);
  expect(metricLabel({ op: "max", path: "/options", measure: "length" })).toBe(
    "max(len(/options))",
  );
  const conflict = parseQueryRequest({
    artifactId: "Zq3xV9kLm2Pw8RtY6uNb4A",
    aggregate: { groupBy: "/type" },
    fields: ["id"],
  });
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

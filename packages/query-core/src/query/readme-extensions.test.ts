import { expect, it } from "vitest";
import { ARTIFACT_ID, query } from "./test-support/query-harness.js";

it("behaves as the README example of §9 says", () => {
  const document = {
    templates: [
      { name: "OpenAI chat", category: "AI", views: 900, nodes: ["openAi", "slack"] },
      { name: "CRM sync", category: "Sales", views: 300, nodes: ["hubspot"] },
      { name: "Summaries", category: "AI", views: 120, nodes: ["openAi"] },
    ],
  };
  const { result } = query(document, {
    artifactId: ARTIFACT_ID,
    responsePath: "/templates",
    aggregate: {
      groupBy: "/nodes",
      unwind: true,
      metrics: [{ op: "count" }, { op: "sum", path: "/views" }],
    },
    sort: [{ path: "sum(/views)", order: "desc" }],
  });
  expect(result.response).toEqual([
    { "/nodes": "openAi", count: 2, "sum(/views)": 1020 },
    { "/nodes": "slack", count: 1, "sum(/views)": 900 },
    { "/nodes": "hubspot", count: 1, "sum(/views)": 300 },
  ]);
  expect(result.responseMeta).toMatchObject({
    pageUnit: "rows",
    totalCount: 3,
    aggregateSkipped: 0,
    extensions: ["sort", "aggregate"],
  });
});

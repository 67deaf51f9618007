import { describe, expect, it } from "vitest";
import { N8N_PREVIEW_BYTES } from "./markers.js";
import {
  createNodeSearchPreview,
  NODE_SEARCH_SUMMARIES,
  nodeSearchPaths,
} from "./node-search-preview.js";

function result(index: number) {
  return {
    nodeType: `nodes-base.google${index}`,
    workflowNodeType: `n8n-nodes-base.google${index}`,
    displayName: `Google ${index}`,
    description: `Consume Google API number ${index}`,
    category: index % 3 === 0 ? "trigger" : "transform",
    package: "n8n-nodes-base",
    relevance: "high",
  };
}

describe("createNodeSearchPreview", () => {
  it("keeps the query and counts and lists the first results within 2 KiB, marking the rest", () => {
    const results = Array.from({ length: 100 }, (_, index) => result(index));
    const preview = createNodeSearchPreview({ query: "google", results, totalCount: 100 }) as {
      results: unknown[];
    };
    const listed = preview.results.length - 1;
    expect(preview).toEqual({
      _summarized: NODE_SEARCH_SUMMARIES,
      query: "google",
      totalCount: 100,
      resultCount: 100,
      results: [
        ...results
          .slice(0, listed)
          .map(({ workflowNodeType, displayName, category, relevance }) => ({
            workflowNodeType,
            displayName,
            category,
            relevance,
          })),
        { _omittedItems: 100 - listed },
      ],
    });
    expect(listed).toBeGreaterThan(5);
    expect(Buffer.byteLength(JSON.stringify(preview))).toBeLessThanOrEqual(N8N_PREVIEW_BYTES);
    expect(nodeSearchPaths({ results })).toEqual(["/results"]);
  });

  it("leaves payloads without results to the generic preview", () => {
    expect(createNodeSearchPreview({ items: [] })).toBeUndefined();
    expect(nodeSearchPaths({ results: {} })).toEqual([]);
  });
});

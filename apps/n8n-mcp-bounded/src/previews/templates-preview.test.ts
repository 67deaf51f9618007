import { describe, expect, it } from "vitest";
import {
  createTemplatesPreview,
  TEMPLATES_DEDUPLICATED,
  TEMPLATES_SUMMARIES,
  templatesPaths,
} from "./templates-preview.js";

describe("createTemplatesPreview", () => {
  it("keeps the paging fields and each template's search fields, node count and distinct types", () => {
    const document = {
      items: [
        {
          id: 1,
          name: "Post to Slack",
          description: "long text ".repeat(50),
          nodes: ["n8n-nodes-base.webhook", "n8n-nodes-base.slack", "n8n-nodes-base.slack"],
          views: 10,
          created: "2025-06-25T22:02:46.851Z",
          author: { name: "A", username: "a", verified: true },
          url: "https://n8n.io/workflows/1",
        },
        {
          id: 2,
          name: "Typed nodes",
          nodes: [{ type: "n8n-nodes-base.set" }, { type: "n8n-nodes-base.set" }],
        },
      ],
      total: 2,
      limit: 100,
      offset: 0,
      hasMore: false,
    };
    expect(createTemplatesPreview(document)).toEqual({
      _summarized: TEMPLATES_SUMMARIES,
      _deduplicated: TEMPLATES_DEDUPLICATED,
      total: 2,
      limit: 100,
      offset: 0,
      hasMore: false,
      itemCount: 2,
      items: [
        {
          id: 1,
          name: "Post to Slack",
          views: 10,
          created: "2025-06-25T22:02:46.851Z",
          nodeCount: 3,
          nodeTypes: ["n8n-nodes-base.webhook", "n8n-nodes-base.slack"],
        },
        { id: 2, name: "Typed nodes", nodeCount: 2, nodeTypes: ["n8n-nodes-base.set"] },
      ],
    });
    expect(templatesPaths(document)).toEqual(["/items"]);
  });

  it("leaves payloads without items to the generic preview", () => {
    expect(createTemplatesPreview({ templates: [] })).toBeUndefined();
    expect(templatesPaths([])).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { createTemplatesPreview, templatesPaths } from "./templates-preview.js";

describe("createTemplatesPreview", () => {
  it("keeps the paging fields and each template as id, name and its distinct node types", () => {
    const document = {
      items: [
        {
          id: 1,
          name: "Post to Slack",
          description: "long text ".repeat(50),
          nodes: ["n8n-nodes-base.webhook", "n8n-nodes-base.slack", "n8n-nodes-base.slack"],
          views: 10,
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
      total: 2,
      limit: 100,
      offset: 0,
      hasMore: false,
      itemCount: 2,
      items: [
        { id: 1, name: "Post to Slack", nodes: ["n8n-nodes-base.webhook", "n8n-nodes-base.slack"] },
        { id: 2, name: "Typed nodes", nodes: ["n8n-nodes-base.set"] },
      ],
    });
    expect(templatesPaths(document)).toEqual(["/items"]);
  });

  it("leaves payloads without items to the generic preview", () => {
    expect(createTemplatesPreview({ templates: [] })).toBeUndefined();
    expect(templatesPaths([])).toEqual([]);
  });
});

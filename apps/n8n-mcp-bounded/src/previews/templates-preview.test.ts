import { describe, expect, it } from "vitest";
import { N8N_PREVIEW_BYTES } from "./markers.js";
import {
  createTemplatesPreview,
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
        },
        { id: 2, name: "Typed nodes", nodeCount: 2 },
      ],
    });
    expect(templatesPaths(document)).toEqual(["/items"]);
  });

  it("lists the first templates within 2 KiB and counts the rest in {_omittedItems: n}", () => {
    const items = Array.from({ length: 100 }, (_, id) => ({
      id,
      name: `Template number ${id} with a long descriptive name`,
      nodes: ["a", "a", "b"],
      views: 1000 - id,
      created: "2025-06-25T22:02:46.851Z",
    }));
    const preview = createTemplatesPreview({ items, total: 100 }) as { items: unknown[] };
    const listed = preview.items.length - 1;
    expect(listed).toBeGreaterThan(5);
    expect(preview.items.slice(0, listed)).toEqual(
      items.slice(0, listed).map(({ nodes: _nodes, ...rest }) => ({ ...rest, nodeCount: 3 })),
    );
    expect(preview.items.at(-1)).toEqual({ _omittedItems: 100 - listed });
    expect(Buffer.byteLength(JSON.stringify(preview))).toBeLessThanOrEqual(N8N_PREVIEW_BYTES);
  });

  it("leaves payloads without items to the generic preview", () => {
    expect(createTemplatesPreview({ templates: [] })).toBeUndefined();
    expect(templatesPaths([])).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import {
  createNodeSchemaPreview,
  groupOperationsByResource,
  nodeSchemaPaths,
  summarizeDisplayOptions,
} from "./node-schema-preview.js";

const NODE = {
  nodeType: "nodes-base.example",
  workflowNodeType: "n8n-nodes-base.example",
  displayName: "Example",
  description: "Consume Example API",
  category: "output",
  version: "2",
  isVersioned: true,
  isTrigger: false,
  properties: [
    { displayName: "Resource", name: "resource", type: "options", default: "page" },
    {
      name: "operation",
      type: "options",
      displayOptions: { show: { resource: ["page"] } },
    },
    {
      name: "pageId",
      type: "resourceLocator",
      displayOptions: { show: { operation: ["get", "archive"], resource: ["page"] } },
    },
    {
      name: "limit",
      type: "number",
      displayOptions: {
        show: { resource: ["page"], operation: ["get", "archive"] },
        hide: { returnAll: [true] },
      },
    },
    {
      name: "simple",
      type: "boolean",
      displayOptions: { show: { "@version": [{ _cnd: { gte: 2 } }] } },
    },
  ],
  operations: [
    { operation: "get", name: "Get", resource: "page" },
    { operation: "archive", name: "Archive", resource: "page" },
    { operation: "get", name: "Get", resource: "user" },
  ],
  credentials: [{ name: "exampleApi", required: true }],
  versionInfo: { currentVersion: "2" },
};

describe("summarizeDisplayOptions", () => {
  it("writes show as field=a|b and hide as field!=a|b, resource and operation first", () => {
    expect(
      summarizeDisplayOptions({
        show: { operation: ["get", "archive"], mode: ["x"], resource: ["page"] },
        hide: { returnAll: [true] },
      }),
    ).toBe("resource=page; operation=get|archive; mode=x; returnAll!=true");
  });

  it("says always when a property has no conditions", () => {
    expect(summarizeDisplayOptions(undefined)).toBe("always");
    expect(summarizeDisplayOptions({})).toBe("always");
  });
});

describe("createNodeSchemaPreview", () => {
  it("lists every operation by resource and every property as name:type by display options", () => {
    expect(createNodeSchemaPreview(NODE)).toEqual({
      nodeType: "nodes-base.example",
      workflowNodeType: "n8n-nodes-base.example",
      displayName: "Example",
      description: "Consume Example API",
      category: "output",
      version: "2",
      isVersioned: true,
      isTrigger: false,
      credentials: ["exampleApi"],
      operationCount: 3,
      operations: { page: ["get", "archive"], user: ["get"] },
      propertyCount: 5,
      properties: {
        always: ["resource:options"],
        "resource=page": ["operation:options"],
        "resource=page; operation=get|archive": ["pageId:resourceLocator"],
        "resource=page; operation=get|archive; returnAll!=true": ["limit:number"],
        '@version={"_cnd":{"gte":2}}': ["simple:boolean"],
      },
    });
    expect(nodeSchemaPaths(NODE)).toEqual(["/properties", "/operations"]);
  });

  it("groups operations without a resource under (none)", () => {
    expect(groupOperationsByResource([{ operation: "send" }, { value: "receive" }, 3])).toEqual({
      "(none)": ["send", "receive"],
    });
  });

  it("leaves get_node standard (no properties array) to the generic preview", () => {
    const standard = { nodeType: "nodes-base.httpRequest", requiredProperties: [], operations: [] };
    expect(createNodeSchemaPreview(standard)).toBeUndefined();
    expect(nodeSchemaPaths(standard)).toEqual([]);
  });
});

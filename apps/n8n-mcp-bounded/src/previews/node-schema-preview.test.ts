import { describe, expect, it } from "vitest";
import {
  createNodeSchemaPreview,
  describeProperty,
  groupOperationsByResource,
  NODE_SCHEMA_SUMMARIES,
  nodeSchemaPaths,
  nodeSchemaRoot,
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
      default: "get",
      displayOptions: { show: { resource: ["page"] } },
    },
    {
      name: "pageId",
      type: "resourceLocator",
      required: true,
      default: { mode: "list", value: "" },
      displayOptions: { show: { operation: ["get", "archive"], resource: ["page"] } },
    },
    {
      name: "limit",
      type: "number",
      default: 50,
      displayOptions: {
        show: { resource: ["page"], operation: ["get", "archive"] },
        hide: { returnAll: [true] },
      },
    },
    {
      name: "simple",
      type: "boolean",
      required: false,
      default: "a long default text that the preview cuts after forty characters",
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
  it("lists operations by resource and properties as name:type, * required, =default by display", () => {
    expect(createNodeSchemaPreview(NODE)).toEqual({
      _summarized: NODE_SCHEMA_SUMMARIES,
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
        always: ['resource:options="page"'],
        "resource=page": ['operation:options="get"'],
        "resource=page; operation=get|archive": [
          'pageId:resourceLocator*={"mode":"list","value":""}',
        ],
        "resource=page; operation=get|archive; returnAll!=true": ["limit:number=50"],
        '@version={"_cnd":{"gte":2}}': [
          'simple:boolean="a long default text that the preview cu…[66 chars total]',
        ],
      },
    });
    expect(nodeSchemaPaths(NODE)).toEqual(["/properties", "/operations"]);
  });

  it("marks a property with no default by writing no =, and one without a type as unknown", () => {
    expect(describeProperty({ name: "note" })).toBe("note:unknown");
    expect(describeProperty({ name: "empty", type: "string", default: "" })).toBe(
      'empty:string=""',
    );
    expect(describeProperty({ name: "nothing", type: "json", default: null })).toBe(
      "nothing:json=null",
    );
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

describe("nodeSchemaRoot", () => {
  it("is /properties whenever the properties array is the largest top-level collection", () => {
    expect(nodeSchemaRoot(NODE)).toBe("/properties");
    const fewProperties = { ...NODE, properties: [{ name: "a", type: "string" }] };
    expect(nodeSchemaRoot(fewProperties)).toBeUndefined();
  });

  it("leaves payloads without a properties array to the generic analysis", () => {
    expect(nodeSchemaRoot({ nodeType: "x", operations: [] })).toBeUndefined();
    expect(nodeSchemaRoot([])).toBeUndefined();
  });
});

import type { Json, ModelView } from "../model.js";
import { distinct, isCut, lostKeys, type Question, type Source, sorted } from "../question.js";

const NODES = {
  notion: "n8n-nodes-base.notion",
  slack: "n8n-nodes-base.slack",
  zoho: "n8n-nodes-base.zohoCrm",
  salesforce: "n8n-nodes-base.salesforce",
  github: "n8n-nodes-base.github",
  jira: "n8n-nodes-base.jira",
} as const;

/** The n8n-mcp 2.87.0 calls the questions are about (all answered by its bundled database). */
export const N8N_SOURCES: Source[] = [
  ...Object.entries(NODES).map(([id, nodeType]) => ({
    id,
    server: "n8n" as const,
    tool: "get_node",
    arguments: { nodeType, detail: "full" },
    label: `get_node ${id} (full)`,
  })),
  {
    id: "templatesHttp",
    server: "n8n",
    tool: "search_templates",
    arguments: { searchMode: "by_nodes", nodeTypes: ["n8n-nodes-base.httpRequest"], limit: 100 },
    label: "search_templates by_nodes httpRequest, limit 100",
  },
  {
    id: "templatesSlack",
    server: "n8n",
    tool: "search_templates",
    arguments: { query: "slack", limit: 100 },
    label: 'search_templates "slack", limit 100',
  },
  {
    id: "nodesGoogle",
    server: "n8n",
    tool: "search_nodes",
    arguments: { query: "google", limit: 100 },
    label: 'search_nodes "google", limit 100',
  },
];

type Property = { name: string; type: string; required?: boolean; default?: unknown } & Json;

function shows(property: Property, field: string, value: string): boolean {
  const values = property.displayOptions?.show?.[field];
  return Array.isArray(values) && values.includes(value);
}

/** The operations of one resource: from the preview when it lists them whole, else queried. */
async function operationsOf(model: ModelView, resource: string): Promise<string[]> {
  const grouped = model.envelope.data.operations;
  if (!lostKeys(grouped) && Object.hasOwn(grouped, resource) && !isCut(grouped[resource])) {
    return grouped[resource];
  }
  const items = await model.queryAll({
    responsePath: "/operations",
    filters: [{ path: "/resource", value: resource }],
    fields: ["operation"],
  });
  return items.map((item) => item.operation);
}

const requiredCount = (id: keyof typeof NODES, label: string): Question => ({
  id: `${id}-required`,
  source: id,
  text: `How many properties of the ${label} node are marked required?`,
  truth: (raw) => raw.properties.filter((property: Property) => property.required === true).length,
  // The same query on every node: no responsePath, the responseRoot is /properties.
  answer: (model) =>
    model.count({ filters: [{ path: "/required", value: true }], fields: ["name"] }),
});

/** Questions over get_node, search_templates and search_nodes results. */
export const N8N_QUESTIONS: Question[] = [
  requiredCount("notion", "Notion"),
  requiredCount("slack", "Slack"),
  requiredCount("zoho", "Zoho CRM"),
  requiredCount("salesforce", "Salesforce"),
  requiredCount("github", "GitHub"),
  requiredCount("jira", "Jira Software"),
  {
    id: "notion-resources",
    source: "notion",
    text: "Which resources does the Notion node offer?",
    truth: (raw) => distinct(raw.operations.map((operation: Json) => operation.resource)),
    async answer(model) {
      const grouped = model.envelope.data.operations;
      if (!lostKeys(grouped)) return Object.keys(grouped);
      const items = await model.queryAll({ responsePath: "/operations", fields: ["resource"] });
      return distinct(items.map((item) => item.resource));
    },
  },
  {
    id: "notion-property-count",
    source: "notion",
    text: "How many properties does the Notion node define?",
    truth: (raw) => raw.properties.length,
    answer: async (model) => model.envelope.data.propertyCount,
  },
  {
    id: "notion-resource-default",
    source: "notion",
    text: "What is the Notion node's default resource?",
    truth: (raw) =>
      raw.properties.find((property: Property) => property.name === "resource").default,
    async answer(model) {
      // The preview writes each property as name:type, * when required, =default as JSON.
      const always: unknown = model.envelope.data.properties?.always;
      const line = Array.isArray(always)
        ? always.find((text) => typeof text === "string" && text.startsWith("resource:"))
        : undefined;
      if (typeof line === "string" && line.includes("=") && !line.includes("chars total]")) {
        return JSON.parse(line.slice(line.indexOf("=") + 1));
      }
      const page = await model.query({
        filters: [{ path: "/name", value: "resource" }],
        fields: ["default"],
        pageSize: 1,
      });
      return page.response[0].default;
    },
  },
  {
    id: "slack-limit-default",
    source: "slack",
    text: "What is the default of `limit` when listing Slack channels (channel getAll)?",
    truth: (raw) =>
      raw.properties.find(
        (property: Property) =>
          property.name === "limit" &&
          shows(property, "resource", "channel") &&
          shows(property, "operation", "getAll"),
      ).default,
    async answer(model) {
      const page = await model.query({
        filters: [
          { path: "/name", value: "limit" },
          { path: "/displayOptions/show/resource", op: "contains", value: "channel" },
          { path: "/displayOptions/show/operation", op: "contains", value: "getAll" },
        ],
        fields: ["default"],
      });
      return page.response[0].default;
    },
  },
  {
    id: "slack-message-operations",
    source: "slack",
    text: "Which operations does the Slack node have for messages?",
    truth: (raw) =>
      raw.operations
        .filter((operation: Json) => operation.resource === "message")
        .map((operation: Json) => operation.operation),
    answer: (model) => operationsOf(model, "message"),
  },
  {
    id: "zoho-deal-operations",
    source: "zoho",
    text: "Which operations does Zoho CRM offer on deals?",
    truth: (raw) =>
      raw.operations
        .filter((operation: Json) => operation.resource === "deal")
        .map((operation: Json) => operation.operation),
    answer: (model) => operationsOf(model, "deal"),
  },
  {
    id: "salesforce-lead-operations",
    source: "salesforce",
    text: "How many operations does the Salesforce node have for leads?",
    truth: (raw) =>
      raw.operations.filter((operation: Json) => operation.resource === "lead").length,
    answer: (model) =>
      model.count({
        responsePath: "/operations",
        filters: [{ path: "/resource", value: "lead" }],
        fields: ["operation"],
      }),
  },
  {
    id: "salesforce-collections",
    source: "salesforce",
    text: "How many Salesforce properties are of type collection?",
    truth: (raw) =>
      raw.properties.filter((property: Property) => property.type === "collection").length,
    answer: (model) =>
      model.count({ filters: [{ path: "/type", value: "collection" }], fields: ["name"] }),
  },
  {
    id: "github-credentials",
    source: "github",
    text: "Which credentials can the GitHub node use?",
    truth: (raw) => raw.credentials.map((credential: Json) => credential.name),
    answer: async (model) => model.envelope.data.credentials,
  },
  {
    id: "github-file-create-required",
    source: "github",
    text: "Which properties are required to create a file with the GitHub node?",
    truth: (raw) =>
      sorted(
        raw.properties
          .filter(
            (property: Property) =>
              property.required === true &&
              shows(property, "resource", "file") &&
              shows(property, "operation", "create"),
          )
          .map((property: Property) => property.name),
      ),
    async answer(model) {
      const items = await model.queryAll({
        filters: [
          { path: "/required", value: true },
          { path: "/displayOptions/show/resource", op: "contains", value: "file" },
          { path: "/displayOptions/show/operation", op: "contains", value: "create" },
        ],
        fields: ["name"],
      });
      return sorted(items.map((item) => item.name));
    },
  },
  {
    id: "jira-issue-create-required",
    source: "jira",
    text: "Which properties are required to create a Jira issue?",
    truth: (raw) =>
      sorted(
        raw.properties
          .filter(
            (property: Property) =>
              property.required === true &&
              shows(property, "resource", "issue") &&
              shows(property, "operation", "create"),
          )
          .map((property: Property) => property.name),
      ),
    async answer(model) {
      const items = await model.queryAll({
        filters: [
          { path: "/required", value: true },
          { path: "/displayOptions/show/resource", op: "contains", value: "issue" },
          { path: "/displayOptions/show/operation", op: "contains", value: "create" },
        ],
        fields: ["name"],
      });
      return sorted(items.map((item) => item.name));
    },
  },
  {
    id: "templates-first-node-count",
    source: "templatesHttp",
    text: "How many nodes does the first template listed have?",
    truth: (raw) => raw.items[0].nodes.length,
    answer: async (model) => model.envelope.data.items[0].nodeCount,
  },
  {
    id: "templates-total",
    source: "templatesHttp",
    text: "How many templates match in all, beyond this page of results?",
    truth: (raw) => raw.total,
    answer: async (model) => model.envelope.data.total,
  },
  {
    id: "templates-using-slack",
    source: "templatesHttp",
    text: "How many of these templates use the Slack node?",
    truth: (raw) =>
      raw.items.filter((item: Json) => item.nodes.includes("n8n-nodes-base.slack")).length,
    answer: (model) =>
      model.count({
        filters: [{ path: "/nodes", op: "contains", value: "n8n-nodes-base.slack" }],
        fields: ["id"],
      }),
  },
  {
    id: "templates-most-viewed",
    source: "templatesHttp",
    text: "Which of these templates has the most views (its id)?",
    truth: (raw) => mostBy(raw.items, "views").id,
    async answer(model) {
      const items = await model.queryAll({ fields: ["id", "views"] });
      return mostBy(items, "views").id;
    },
  },
  {
    id: "templates-june-2025",
    source: "templatesHttp",
    text: "How many of these templates were created in June 2025?",
    truth: (raw) => raw.items.filter((item: Json) => item.created.startsWith("2025-06")).length,
    answer: (model) =>
      model.count({
        filters: [
          { path: "/created", op: "gte", value: "2025-06-01" },
          { path: "/created", op: "lt", value: "2025-07-01" },
        ],
        fields: ["id"],
      }),
  },
  {
    id: "templates-second-author",
    source: "templatesHttp",
    text: "Who (username) wrote the second template listed?",
    truth: (raw) => raw.items[1].author.username,
    async answer(model) {
      // The preview names `author` without its keys: read the second template's.
      const page = await model.query({ responsePath: "/items/1/author" });
      return page.response.username;
    },
  },
  {
    id: "templates-without-sticky-notes",
    source: "templatesHttp",
    text: "How many of these templates have no sticky note?",
    truth: (raw) =>
      raw.items.filter((item: Json) => !item.nodes.includes("n8n-nodes-base.stickyNote")).length,
    async answer(model) {
      const withNotes = await model.count({
        filters: [{ path: "/nodes", op: "contains", value: "n8n-nodes-base.stickyNote" }],
        fields: ["id"],
      });
      return model.envelope.data.itemCount - withNotes;
    },
  },
  {
    id: "slack-templates-medium",
    source: "templatesSlack",
    text: "How many of the Slack templates found are of medium complexity?",
    truth: (raw) => raw.items.filter((item: Json) => item.metadata?.complexity === "medium").length,
    async answer(model) {
      // The preview names metadata without its keys: look at one template's first.
      await model.query({ responsePath: "/items/0/metadata" });
      return model.count({
        filters: [{ path: "/metadata/complexity", value: "medium" }],
        fields: ["id"],
      });
    },
  },
  {
    id: "slack-templates-notion",
    source: "templatesSlack",
    text: "Which of the Slack templates found mention Notion in their name (ids)?",
    truth: (raw) =>
      raw.items
        .filter((item: Json) => item.name.toLowerCase().includes("notion"))
        .map((item: Json) => item.id),
    async answer(model) {
      const items = await model.queryAll({
        filters: [{ path: "/name", op: "icontains", value: "notion" }],
        fields: ["id"],
      });
      return items.map((item) => item.id);
    },
  },
  {
    id: "slack-templates-oldest",
    source: "templatesSlack",
    text: "When was the oldest of the Slack templates found created?",
    truth: (raw) => sorted(raw.items.map((item: Json) => item.created))[0],
    async answer(model) {
      const items = await model.queryAll({ fields: ["created"] });
      return sorted(items.map((item) => item.created))[0];
    },
  },
  {
    id: "slack-templates-verified",
    source: "templatesSlack",
    text: "How many of the Slack templates found are by verified authors?",
    truth: (raw) => raw.items.filter((item: Json) => item.author?.verified === true).length,
    async answer(model) {
      await model.query({ responsePath: "/items/0/author" });
      return model.count({ filters: [{ path: "/author/verified", value: true }], fields: ["id"] });
    },
  },
  {
    id: "google-triggers",
    source: "nodesGoogle",
    text: "How many of the Google nodes found are triggers?",
    truth: (raw) => raw.results.filter((node: Json) => node.category === "trigger").length,
    answer: (model) =>
      model.count({
        responsePath: model.envelope.responseMeta.artifact.primaryPaths[0],
        filters: [{ path: "/category", value: "trigger" }],
        fields: ["workflowNodeType"],
      }),
  },
  {
    id: "google-high-relevance",
    source: "nodesGoogle",
    text: "Which of the Google nodes found have high relevance (node types)?",
    truth: (raw) =>
      raw.results
        .filter((node: Json) => node.relevance === "high")
        .map((node: Json) => node.workflowNodeType),
    async answer(model) {
      const items = await model.queryAll({
        responsePath: model.envelope.responseMeta.artifact.primaryPaths[0],
        filters: [{ path: "/relevance", value: "high" }],
        fields: ["workflowNodeType"],
      });
      return items.map((item) => item.workflowNodeType);
    },
  },
];

/** The first item with the largest `key` (ties: the first). */
export function mostBy(items: readonly Json[], key: string): Json {
  let best = items[0];
  for (const item of items) if (item[key] > best[key]) best = item;
  return best;
}

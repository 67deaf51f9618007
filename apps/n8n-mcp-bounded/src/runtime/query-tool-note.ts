import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";

/**
 * The n8n example appended to the query tool's description: a workflow's `connections` is a keyed
 * object (source node name -> outputs), which fields and filters only reach with objectMode
 * "entries". The exact request is pinned by an end-to-end test.
 */
export const N8N_QUERY_TOOL_NOTE = [
  "n8n example: a workflow's connections are keyed by source node name, so query them as entries:",
  `${QUERY_TOOL_NAME} {"artifactId": "<id>", "responsePath": "/data/connections", "objectMode": "entries",`,
  '"filters": [{"path": "/key", "op": "eq", "value": "Webhook"}], "fields": ["/key", "/value/main"]}',
  'returns [{"/key": "Webhook", "/value/main": [[{"node": "Set", "type": "main", "index": 0}]]}].',
].join(" ");

import { isRecord, isScalar, pickKeys } from "./json-shapes.js";

/** At most this many executions are listed in a preview (the rest are counted). */
export const MAX_PREVIEW_EXECUTIONS = 20;

const EXECUTION_KEYS = [
  "id",
  "workflowId",
  "status",
  "mode",
  "startedAt",
  "stoppedAt",
  "finished",
] as const;

/**
 * The preview of an `n8n_executions` list result (`{success, data: {executions: [...], returned,
 * nextCursor, hasMore}}`): the scalar fields of `data` (counts, n8n's own cursor), the number of
 * executions, and the first 20 as {id, workflowId, status, mode, startedAt, stoppedAt, finished}
 * (the envelope already carries `success`). Undefined for any other shape (a single execution
 * with its data gets the generic preview).
 */
export function createExecutionsPreview(document: unknown): unknown {
  if (!isRecord(document) || !isRecord(document.data)) return undefined;
  const { executions } = document.data;
  if (!Array.isArray(executions)) return undefined;
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document.data)) {
    if (isScalar(value)) data[key] = value;
  }
  data.executionCount = executions.length;
  data.executions = executions
    .slice(0, MAX_PREVIEW_EXECUTIONS)
    .map((execution) => (isRecord(execution) ? pickKeys(execution, EXECUTION_KEYS) : execution));
  return data;
}

/** The pointer of an executions list, for primaryPaths. */
export function executionsPaths(document: unknown): string[] {
  if (!isRecord(document) || !isRecord(document.data)) return [];
  return Array.isArray(document.data.executions) ? ["/data/executions"] : [];
}

import { isRecord, isScalar, pickKeys } from "./json-shapes.js";
import { jsonBytes, listWithin, N8N_PREVIEW_BYTES, SUMMARIZED_KEY } from "./markers.js";

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

/** What the reshaped key of an executions preview holds (the preview's `_summarized`). */
export const EXECUTIONS_SUMMARIES = Object.freeze({
  executions:
    "the first ones (executionCount counts all) as id, workflowId, status, mode, startedAt, stoppedAt, finished",
});

/**
 * The preview of an `n8n_executions` list result (`{success, data: {executions: [...], returned,
 * nextCursor, hasMore}}`): `_summarized` first, the scalar fields of `data` (counts, n8n's own
 * cursor), the number of executions, and the first ones (at most 20, within N8N_PREVIEW_BYTES)
 * as {id, workflowId, status, mode, startedAt, stoppedAt, finished}, then `{"_omittedItems": n}`
 * when there are more (the envelope already carries `success`). Undefined for any other shape (a single execution
 * with its data gets the generic preview).
 */
export function createExecutionsPreview(document: unknown): unknown {
  if (!isRecord(document) || !isRecord(document.data)) return undefined;
  const { executions } = document.data;
  if (!Array.isArray(executions)) return undefined;
  const data: Record<string, unknown> = { [SUMMARIZED_KEY]: EXECUTIONS_SUMMARIES };
  for (const [key, value] of Object.entries(document.data)) {
    if (isScalar(value) && !Object.hasOwn(data, key)) data[key] = value;
  }
  data.executionCount = executions.length;
  data.executions = listWithin(
    executions.map((execution) =>
      isRecord(execution) ? pickKeys(execution, EXECUTION_KEYS) : execution,
    ),
    N8N_PREVIEW_BYTES - jsonBytes(data),
    { limit: MAX_PREVIEW_EXECUTIONS },
  );
  return data;
}

/** The pointer of an executions list, for primaryPaths. */
export function executionsPaths(document: unknown): string[] {
  if (!isRecord(document) || !isRecord(document.data)) return [];
  return Array.isArray(document.data.executions) ? ["/data/executions"] : [];
}

import { describe, expect, it } from "vitest";
import { generateExecutions } from "../../test/support/generate-workflow.js";
import {
  createExecutionsPreview,
  EXECUTIONS_SUMMARIES,
  executionsPaths,
} from "./executions-preview.js";
import { N8N_PREVIEW_BYTES } from "./markers.js";

describe("createExecutionsPreview", () => {
  it("keeps n8n's counts and cursor and the first executions (2 KiB) as the seven summary fields", () => {
    const executions = generateExecutions("wf-9", 45);
    const document = {
      success: true,
      data: { executions, returned: 45, nextCursor: "next", hasMore: true, _note: "More." },
    };
    expect(createExecutionsPreview(document)).toEqual({
      _summarized: EXECUTIONS_SUMMARIES,
      returned: 45,
      nextCursor: "next",
      hasMore: true,
      _note: "More.",
      executionCount: 45,
      executions: expect.any(Array),
    });
    const preview = createExecutionsPreview(document) as { executions: unknown[] };
    const listed = preview.executions.length - 1;
    expect(listed).toBeGreaterThan(5);
    expect(preview.executions).toEqual([
      ...executions.slice(0, listed).map((execution) => ({
        id: execution.id,
        workflowId: "wf-9",
        status: execution.status,
        mode: execution.mode,
        startedAt: execution.startedAt,
        stoppedAt: execution.stoppedAt,
        finished: execution.finished,
      })),
      { _omittedItems: 45 - listed },
    ]);
    expect(Buffer.byteLength(JSON.stringify(preview))).toBeLessThanOrEqual(N8N_PREVIEW_BYTES);
    expect(executionsPaths(document)).toEqual(["/data/executions"]);
  });

  it("lists a few executions whole, without an omission marker", () => {
    const executions = generateExecutions("wf-3", 3);
    const preview = createExecutionsPreview({ success: true, data: { executions } }) as {
      executions: unknown[];
    };
    expect(preview.executions).toHaveLength(3);
    expect(preview.executions.at(-1)).toMatchObject({ id: executions[2]?.id });
  });

  it("leaves a single execution and error objects to the generic preview", () => {
    const single = { success: true, data: { id: "1", data: { resultData: {} } } };
    expect(createExecutionsPreview(single)).toBeUndefined();
    expect(createExecutionsPreview({ success: false, error: "boom" })).toBeUndefined();
    expect(executionsPaths(single)).toEqual([]);
  });
});

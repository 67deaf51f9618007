import { describe, expect, it } from "vitest";
import { generateExecutions } from "../../test/support/generate-workflow.js";
import {
  createExecutionsPreview,
  EXECUTIONS_SUMMARIES,
  executionsPaths,
} from "./executions-preview.js";

describe("createExecutionsPreview", () => {
  it("keeps n8n's counts and cursor and the first 20 executions as the seven summary fields", () => {
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
      executions: [
        ...executions.slice(0, 20).map((execution) => ({
          id: execution.id,
          workflowId: "wf-9",
          status: execution.status,
          mode: execution.mode,
          startedAt: execution.startedAt,
          stoppedAt: execution.stoppedAt,
          finished: execution.finished,
        })),
        { _omittedItems: 25 },
      ],
    });
    expect(executionsPaths(document)).toEqual(["/data/executions"]);
  });

  it("lists 20 executions or fewer without an omission marker", () => {
    const executions = generateExecutions("wf-3", 20);
    const preview = createExecutionsPreview({ success: true, data: { executions } }) as {
      executions: unknown[];
    };
    expect(preview.executions).toHaveLength(20);
    expect(preview.executions.at(-1)).toMatchObject({ id: executions[19]?.id });
  });

  it("leaves a single execution and error objects to the generic preview", () => {
    const single = { success: true, data: { id: "1", data: { resultData: {} } } };
    expect(createExecutionsPreview(single)).toBeUndefined();
    expect(createExecutionsPreview({ success: false, error: "boom" })).toBeUndefined();
    expect(executionsPaths(single)).toEqual([]);
  });
});

import type { LinearStdioClientTransport } from "@bounded-mcp/relay";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type BoundedConnection, connectBounded } from "./support/connect-bounded.js";
import { envelopeOf, query } from "./support/envelopes.js";

const NOTION_FULL = { nodeType: "n8n-nodes-base.notion", detail: "full" };

let bounded: BoundedConnection;

beforeAll(async () => {
  bounded = await connectBounded("claude-code", { restart: { random: () => 0 } });
});

afterAll(async () => {
  await bounded?.close();
});

function childPid(): number {
  const transport = bounded.session.supervisor?.client.transport as
    | LinearStdioClientTransport
    | undefined;
  const pid = transport?.pid;
  if (pid === undefined) throw new Error("no n8n-mcp child");
  return pid;
}

describe("an n8n-mcp child that dies", () => {
  it("is restarted, and artifacts stored before the crash stay queryable", async () => {
    const before = envelopeOf(await bounded.call("get_node", NOTION_FULL));
    const firstPid = childPid();
    process.kill(firstPid, "SIGKILL");
    await vi.waitFor(() => expect(bounded.session.supervisor?.restarts).toBe(1), {
      timeout: 20_000,
      interval: 50,
    });
    expect(childPid()).not.toBe(firstPid);
    const after = envelopeOf(await bounded.call("get_node", NOTION_FULL));
    expect(after.responseMeta.artifact.id).toBe(before.responseMeta.artifact.id);
    const page = await query(bounded.call, {
      artifactId: before.responseMeta.artifact.id,
      responsePath: "/operations",
      fields: ["operation"],
      pageSize: 3,
    });
    expect(page.response).toEqual([
      { operation: "append" },
      { operation: "getMarkdown" },
      { operation: "getAll" },
    ]);
  });
});

import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { childPids, isAlive } from "./support/child-processes.js";
import { startHttpProxy } from "./support/proxy-process.js";
import { INITIALIZE } from "./support/raw-stdio.js";

/** A small real stdio upstream (the HTTP load benchmark's): starts fast, answers tools/list. */
const UPSTREAM = fileURLToPath(new URL("../bench/load-upstream.mjs", import.meta.url));

/** The proxy's `bounded_mcp_sessions` gauge, from GET /metrics. */
async function sessionGauge(url: string): Promise<number> {
  const text = await (await fetch(new URL("/metrics", url))).text();
  return Number(/^bounded_mcp_sessions (\d+)$/m.exec(text)?.[1] ?? Number.NaN);
}

/** Resolves once `check` holds; the test's timeout bounds the wait (no fixed delay). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("bounded-mcp-proxy over streamable HTTP releases what a session holds", () => {
  it("frees the relay session and the upstream child of a session closed by DELETE", async () => {
    const proxy = await startHttpProxy(
      ["--listen", "http://127.0.0.1:0/mcp", "--", process.execPath, UPSTREAM, "1"],
      { BOUNDED_MCP_LOG_LEVEL: "info" },
    );
    try {
      const proxyPid = proxy.child.pid!;
      const open = async () => {
        const transport = new StreamableHTTPClientTransport(new URL(proxy.url));
        const client = new Client({ name: "release-test", version: "1.0.0" });
        await client.connect(transport);
        await client.listTools();
        return { client, transport };
      };
      const deleted = await open();
      const [deletedChild] = childPids(proxyPid);
      const kept = await open();
      expect(childPids(proxyPid)).toHaveLength(2);
      expect(await sessionGauge(proxy.url)).toBe(2);

      const deletedId = deleted.transport.sessionId!;
      await deleted.transport.terminateSession();
      await deleted.client.close();
      await proxy.logged(`"sessionId":"${deletedId}","msg":"session closed"`);
      await until(() => !isAlive(deletedChild!));
      await until(async () => (await sessionGauge(proxy.url)) === 1);
      // The other session is untouched and still answers.
      expect((await kept.client.listTools()).tools.map((tool) => tool.name)).toContain("big");
      expect(childPids(proxyPid)).toHaveLength(1);
      await kept.client.close();
    } finally {
      await proxy.stop();
    }
  });

  it("frees the relay session and the upstream child of a session left idle", async () => {
    const proxy = await startHttpProxy(
      [
        "--listen",
        "http://127.0.0.1:0/mcp",
        "--idle-timeout",
        "300ms",
        "--",
        process.execPath,
        UPSTREAM,
        "1",
      ],
      { BOUNDED_MCP_LOG_LEVEL: "info" },
    );
    try {
      const opened = await fetch(proxy.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(INITIALIZE),
      });
      const sessionId = opened.headers.get("mcp-session-id")!;
      await opened.text();
      // initialize was answered by the upstream, so its child is running.
      const [child] = childPids(proxy.child.pid!);
      expect(child).toBeDefined();
      await proxy.logged(`"sessionId":"${sessionId}","msg":"session closed: idle"`);
      await until(() => !isAlive(child!));
      expect(await sessionGauge(proxy.url)).toBe(0);
      expect(childPids(proxy.child.pid!)).toEqual([]);
    } finally {
      await proxy.stop();
    }
  });
});

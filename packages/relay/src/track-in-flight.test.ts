import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { trackInFlight } from "./track-in-flight.js";

/** A tracked server-side transport and the client side that talks to it. */
async function trackedPair() {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const tracked = trackInFlight(serverSide);
  const received: JSONRPCMessage[] = [];
  tracked.transport.onmessage = (message) => received.push(message);
  await tracked.transport.start();
  await clientSide.start();
  return { clientSide, tracked, received };
}

const settled = async (promise: Promise<void>) =>
  Promise.race([
    promise.then(() => "idle"),
    new Promise((resolve) => setImmediate(resolve, "waiting")),
  ]);

describe("trackInFlight", () => {
  it("is idle at once without requests, and once every request got its answer", async () => {
    const { clientSide, tracked, received } = await trackedPair();
    expect(await settled(tracked.whenIdle())).toBe("idle");
    await clientSide.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "a" } });
    await clientSide.send({ jsonrpc: "2.0", id: "two", method: "ping" });
    await clientSide.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(received).toHaveLength(3);
    const idle = tracked.whenIdle();
    expect(await settled(idle)).toBe("waiting");
    await tracked.transport.send({ jsonrpc: "2.0", id: 1, result: {} });
    expect(await settled(idle)).toBe("waiting");
    await tracked.transport.send({
      jsonrpc: "2.0",
      id: "two",
      error: { code: -32601, message: "no" },
    });
    expect(await settled(idle)).toBe("idle");
  });

  it("stops waiting after maxWaitMs, and when the transport closes", async () => {
    const { clientSide, tracked } = await trackedPair();
    await clientSide.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await tracked.whenIdle(5);
    const idle = tracked.whenIdle();
    expect(await settled(idle)).toBe("waiting");
    await clientSide.close();
    expect(await settled(idle)).toBe("idle");
  });
});

import { describe, expect, it } from "vitest";
import type { NodeHttpServerTransport } from "./node-http-transport.js";
import { createSessionRegistry, type SessionEntry } from "./session-registry.js";

const entry = (principal: string | null): SessionEntry => ({
  relay: { close: async () => {} },
  transport: {} as NodeHttpServerTransport,
  principal,
  lastActive: 0,
  inFlight: 0,
});

describe("createSessionRegistry per principal", () => {
  it("caps one principal's sessions and reservations while others still get slots", () => {
    const registry = createSessionRegistry({
      maxSessions: 4,
      maxSessionsPerPrincipal: 2,
      idleTimeoutMs: 1_000,
    });
    expect([registry.reserve("alice"), registry.reserve("alice")]).toEqual(["ok", "ok"]);
    registry.add("a1", entry("alice"));
    expect([registry.reserve("alice"), registry.reserve("bob")]).toEqual(["principal", "ok"]);
  });

  it("gives a principal its slot back when a session closes or a reservation is released", async () => {
    const registry = createSessionRegistry({
      maxSessions: 4,
      maxSessionsPerPrincipal: 1,
      idleTimeoutMs: 1_000,
    });
    expect(registry.reserve("alice")).toBe("ok");
    registry.release("alice");
    expect(registry.reserve("alice")).toBe("ok");
    registry.add("a1", entry("alice"));
    registry.remove("a1");
    expect(registry.reserve("alice")).toBe("ok");
    registry.add("a2", entry("alice"));
    expect(await registry.closeIdle(1_000)).toEqual(["a2"]);
    expect(registry.reserve("alice")).toBe("ok");
  });

  it("caps sessions without a principal (no --auth-tokens) by maxSessions only", () => {
    const registry = createSessionRegistry({
      maxSessions: 3,
      maxSessionsPerPrincipal: 1,
      idleTimeoutMs: 1_000,
    });
    expect([null, null, null, null].map((principal) => registry.reserve(principal))).toEqual([
      "ok",
      "ok",
      "ok",
      "full",
    ]);
  });
});

import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { createRequestGuard } from "./request-guard.js";

function request(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

describe("createRequestGuard", () => {
  const loopback = createRequestGuard({
    host: "127.0.0.1",
    port: 8080,
    allowedHosts: ["mcp.example.com"],
    allowedOrigins: ["https://app.example.com"],
  });

  it("accepts every loopback alias of a loopback listen address, and --allowed-host", () => {
    const hosts = [
      "127.0.0.1:8080",
      "localhost:8080",
      "[::1]:8080",
      "mcp.example.com",
      "LOCALHOST:8080",
    ];
    expect(hosts.map((host) => loopback.hostAllowed(request({ host })))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
  });

  it("refuses another host, another port and a missing Host header", () => {
    expect(
      ["attacker.example:8080", "127.0.0.1:9090", undefined].map((host) =>
        loopback.hostAllowed(request(host === undefined ? {} : { host })),
      ),
    ).toEqual([false, false, false]);
  });

  it("accepts no Origin, the listen origins and --allowed-origin; refuses any other", () => {
    const origins = [
      undefined,
      "http://127.0.0.1:8080",
      "http://localhost:8080",
      "https://app.example.com",
      "https://evil.example",
      "http://localhost:9999",
      "null",
    ];
    expect(
      origins.map((origin) =>
        loopback.originAllowed(request(origin === undefined ? {} : { origin })),
      ),
    ).toEqual([true, true, true, true, false, false, false]);
  });

  it("accepts any Host on a wildcard address unless --allowed-host narrows it", () => {
    const open = createRequestGuard({
      host: "0.0.0.0",
      port: 80,
      allowedHosts: [],
      allowedOrigins: [],
    });
    const narrowed = createRequestGuard({
      host: "0.0.0.0",
      port: 80,
      allowedHosts: ["mcp.example.com"],
      allowedOrigins: [],
    });
    expect(open.hostAllowed(request({ host: "anything.example" }))).toBe(true);
    expect(narrowed.hostAllowed(request({ host: "anything.example" }))).toBe(false);
    expect(narrowed.hostAllowed(request({ host: "mcp.example.com" }))).toBe(true);
  });

  it("accepts the bare host and origin on port 80, where browsers leave the port out", () => {
    const onPort80 = createRequestGuard({
      host: "localhost",
      port: 80,
      allowedHosts: [],
      allowedOrigins: [],
    });
    const hosts = ["localhost", "localhost:80", "127.0.0.1", "[::1]", "attacker.example"];
    expect(hosts.map((host) => onPort80.hostAllowed(request({ host })))).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
    const origins = ["http://localhost", "http://127.0.0.1", "http://attacker.example"];
    expect(origins.map((origin) => onPort80.originAllowed(request({ origin })))).toEqual([
      true,
      true,
      false,
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { createInFlightRequests } from "./in-flight-requests.js";

const request = (id: unknown, method = "tools/call") =>
  JSON.stringify({ jsonrpc: "2.0", id, method });

describe("the requests in flight of one HTTP client transport", () => {
  it("notes the requests of a POST body (one message or a batch) by id, with their method", () => {
    const inFlight = createInFlightRequests();
    expect(inFlight.noteSent(request(1))).toEqual([1]);
    expect(
      inFlight.noteSent(
        `[${request("a", "ping")},{"jsonrpc":"2.0","method":"notifications/initialized"}]`,
      ),
    ).toEqual(["a"]);
    expect([
      inFlight.size,
      inFlight.methodOf(1),
      inFlight.methodOf("a"),
      inFlight.methodOf("1"),
    ]).toEqual([2, "tools/call", "ping", undefined]);
  });

  it("ends a request on forget and on a notifications/cancelled the SDK sends for it", () => {
    const inFlight = createInFlightRequests();
    inFlight.noteSent(request(1));
    inFlight.noteSent(request(2));
    inFlight.forget(1);
    inFlight.noteSent(
      JSON.stringify({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 2 },
      }),
    );
    expect(inFlight.size).toBe(0);
  });

  it("holds at most `limit` requests, dropping the oldest first", () => {
    const inFlight = createInFlightRequests(3);
    for (let id = 1; id <= 5; id += 1) inFlight.noteSent(request(id));
    expect([1, 2, 3, 4, 5].map((id) => inFlight.methodOf(id) !== undefined)).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
  });

  it("ignores bodies that are not JSON-RPC requests", () => {
    const inFlight = createInFlightRequests();
    expect([
      inFlight.noteSent("{"),
      inFlight.noteSent(undefined),
      inFlight.noteSent('{"jsonrpc":"2.0","id":1,"result":{}}'),
    ]).toEqual([[], [], []]);
  });
});

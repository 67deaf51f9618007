/**
 * The SSE parser the SDK's StreamableHTTPClientTransport reads event streams with
 * (`eventsource-parser`, a dependency of SDK 1.32), so the relay's result guard splits a stream
 * into exactly the events, ids and data texts the SDK will see. Kept here with the SDK: a move to
 * the SDK's next major checks that it still parses SSE with this parser. Limits: the relay pins
 * its own copy (3.1.1); the SDK's range (^3.0.0) could resolve another 3.x, which splits the same
 * way (the WHATWG event-stream rules).
 */
export { createParser, type EventSourceMessage } from "eventsource-parser";

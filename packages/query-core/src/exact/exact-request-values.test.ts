import { describe, expect, it } from "vitest";
import { runQuery } from "../query/run-query.js";
import { createRequest, createTestContext } from "../query/test-support/query-harness.js";
import { parseJsonExact } from "./parse-exact.js";
import { stringifyExact } from "./stringify-exact.js";

// SPEC.md §10: a filter value read exactly from the raw request (an ExactNumber) compares with
// the document's literals by exact value, as the transports hand it over.

const TEXT = `{"items":[
  {"id":12345678901234567890,"k":"a"},
  {"id":12345678901234567891,"k":"b"},
  {"id":12345678901234567000,"k":"c"},
  {"id":0,"k":"d"},
  {"id":5,"k":"e"},
  {"id":1e400,"k":"f"}
]}`;

/** The request's arguments as the relay reads them from the raw line. */
function requestOf(argumentsText: string): Record<string, unknown> {
  return parseJsonExact(argumentsText) as Record<string, unknown>;
}

function keysOf(argumentsText: string): string[] {
  const request = createRequest({ responsePath: "/items", ...requestOf(argumentsText) });
  const outcome = runQuery(parseJsonExact(TEXT), request, createTestContext());
  expect(outcome.isError).toBe(false);
  const text = stringifyExact(outcome.result)?.text as string;
  return [...text.matchAll(/"k":"(\w)"/g)].map((match) => match[1] as string);
}

describe("ExactNumber filter values (SPEC.md §10)", () => {
  it("eq, ne, in and nin compare the request's literal exactly", () => {
    const eq = '{"filters":[{"path":"/id","op":"eq","value":12345678901234567890}]}';
    expect(keysOf(eq)).toEqual(["a"]);
    const ne = '{"filters":[{"path":"/id","op":"ne","value":12345678901234567890}]}';
    expect(keysOf(ne)).toEqual(["b", "c", "d", "e", "f"]);
    const within = '{"filters":[{"path":"/id","op":"in","value":[12345678901234567891,1e400,5]}]}';
    expect(keysOf(within)).toEqual(["b", "e", "f"]);
    const nin = '{"filters":[{"path":"/id","op":"nin","value":[12345678901234567891,-0]}]}';
    expect(keysOf(nin)).toEqual(["a", "c", "e", "f"]);
  });

  it("ordering ops compare by exact value, with a double and with an ExactNumber", () => {
    const gt = '{"filters":[{"path":"/id","op":"gt","value":12345678901234567890}]}';
    expect(keysOf(gt)).toEqual(["b", "f"]);
    const lte = '{"filters":[{"path":"/id","op":"lte","value":12345678901234567890}]}';
    expect(keysOf(lte)).toEqual(["a", "c", "d", "e"]);
    const lt = '{"filters":[{"path":"/id","op":"lt","value":1e400}]}';
    expect(keysOf(lt)).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("-0 equals 0 on both sides, and anyOf takes ExactNumbers too", () => {
    expect(keysOf('{"filters":[{"path":"/id","value":-0}]}')).toEqual(["d"]);
    expect(keysOf('{"filters":[{"path":"/id","op":"in","value":[-0]}]}')).toEqual(["d"]);
    const anyOf =
      '{"filters":[{"anyOf":[{"path":"/id","value":12345678901234567891},{"path":"/k","value":"e"}]}]}';
    expect(keysOf(anyOf)).toEqual(["b", "e"]);
  });
});

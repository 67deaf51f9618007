import { describe, expect, it } from "vitest";
import { loadAuthTokens } from "./auth-tokens.js";

const fileOf = (content: unknown) => () => JSON.stringify(content);

describe("loadAuthTokens", () => {
  const tokens = loadAuthTokens(
    "/t.json",
    fileOf({ "t0k3n-alice": "alice", "t0k3n-bob-2": "bob" }),
  );

  it("turns a known bearer token into its principal as AuthInfo.clientId", () => {
    expect(tokens.authenticate("Bearer t0k3n-alice")).toEqual({
      token: "t0k3n-alice",
      clientId: "alice",
      scopes: [],
    });
    expect(tokens.authenticate("bearer t0k3n-bob-2")?.clientId).toBe("bob");
  });

  it("answers null for a missing, unknown or malformed Authorization header", () => {
    expect(
      [undefined, "", "Bearer nope-nope-nope", "Basic dDBrM24tYWxpY2U=", "t0k3n-alice"].map(
        (header) => tokens.authenticate(header),
      ),
    ).toEqual([null, null, null, null, null]);
  });

  it("answers a remembered header as the first time, and never remembers a refused one", () => {
    const first = tokens.authenticate("Bearer t0k3n-alice");
    const again = tokens.authenticate("Bearer t0k3n-alice");
    expect(again).toEqual(first);
    // A fresh object each time: a caller changing its AuthInfo changes no later request's.
    expect(again).not.toBe(first);
    for (let round = 0; round < 3; round += 1) {
      expect(tokens.authenticate("Bearer nope-nope-nope")).toBeNull();
    }
    // Over the remembered forms (4 per token), a header still authenticates by its digest.
    const forms = Array.from(
      { length: 12 },
      (_, index) => `Bearer t0k3n-bob-2${" ".repeat(index)}`,
    );
    expect(forms.map((header) => tokens.authenticate(header)?.clientId)).toEqual(
      Array(12).fill("bob"),
    );
  });

  it.each([
    [
      ["not", "an object"],
      '--auth-tokens /t.json: expected a JSON object {"<token>": "<principal>"}',
    ],
    [{}, "--auth-tokens /t.json: no tokens in it"],
    [{ short: "alice" }, "--auth-tokens /t.json: a token must be 8+ characters without spaces"],
    [{ "long-enough": "" }, "--auth-tokens /t.json: the principal of each token must be a name"],
  ])("refuses the file %j with one line", (content, message) => {
    expect(() => loadAuthTokens("/t.json", fileOf(content))).toThrow(message);
  });
});

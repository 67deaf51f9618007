import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script of tooling/scripts, without type declarations.
import { createBuildOutputFilter } from "../../scripts/build-output-filter.mjs";

/** What the filter writes for these pnpm output lines. */
function filtered(lines: string[]): string {
  let out = "";
  const filter = createBuildOutputFilter((text: string) => {
    out += text;
  });
  for (const line of lines) filter.line(line);
  filter.end();
  return out;
}

const ok = [
  ".../node_modules/better-sqlite3 install$ prebuild-install || node-gyp rebuild --release",
  ".../node_modules/better-sqlite3 install: gyp info it worked if it ends with ok",
  ".../node_modules/better-sqlite3 install:   CC(target) Release/obj.target/sqlite3/gen/sqlite3/sqlite3.o",
  ".../node_modules/better-sqlite3 install: Done",
];

describe("createBuildOutputFilter (pnpm install's piped build output)", () => {
  it("drops a build that ends in Done and passes every other line through", () => {
    expect(filtered(["Packages: +503", ...ok, "Done in 2m 50.3s using pnpm v12.4.2"])).toBe(
      "Packages: +503\nDone in 2m 50.3s using pnpm v12.4.2\n",
    );
  });

  it("prints every line of a build that ends in Failed, and of one that never ended", () => {
    const failed = [
      ".../node_modules/dep install$ node build.js",
      ".../node_modules/dep install: fatal: no headers",
      ".../node_modules/dep install: Failed",
    ];
    const open = [".../node_modules/other postinstall: still going"];
    expect(filtered([...failed, ...ok, ...open])).toBe(`${[...failed, ...open].join("\n")}\n`);
  });
});

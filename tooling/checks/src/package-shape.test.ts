import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readWorkspace } from "./check-layering.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const manifests = readWorkspace(ROOT).map((pkg) => ({
  dir: pkg.dir,
  manifest: JSON.parse(readFileSync(join(pkg.dir, "package.json"), "utf8")),
}));

describe.each(manifests)("$manifest.name package.json (CONTRIBUTING.md)", ({ dir, manifest }) => {
  it("is a published ESM package without side effects that ships only dist", () => {
    expect(manifest.private).toBeUndefined();
    expect(manifest.type).toBe("module");
    expect(manifest.sideEffects).toBe(false);
    expect(manifest.files).toEqual(["dist"]);
    expect(manifest.engines).toEqual({ node: ">=20.19" });
    expect(manifest.publishConfig).toEqual({ access: "public" });
  });

  it("lists types first in every export and exports its package.json", () => {
    expect(manifest.exports["./package.json"]).toBe("./package.json");
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (subpath === "./package.json") continue;
      expect(Object.keys(target as object), subpath).toEqual(["types", "default"]);
    }
  });

  it("uses the same script names as every other package", () => {
    for (const script of ["build", "typecheck", "publint"]) {
      expect(manifest.scripts[script]).toBeTypeOf("string");
    }
  });

  it("has a README that says what it owns", () => {
    expect(readFileSync(join(dir, "README.md"), "utf8")).toMatch(/^# /);
  });
});

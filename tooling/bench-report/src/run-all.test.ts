import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./report.js";
import { STEPS } from "./run-all.js";
import { SECTIONS } from "./sections.js";

describe("the steps of pnpm bench", () => {
  it("run scripts that exist, for sections the report defines", () => {
    const missing = STEPS.filter(
      (step) => !("optional" in step) && !existsSync(join(ROOT, step.cwd, step.args[0] as string)),
    );
    expect(missing).toEqual([]);
    const defined = new Set(SECTIONS.map((section) => section.id));
    expect(STEPS.flatMap((step) => step.sections).filter((id) => !defined.has(id))).toEqual([]);
  });

  it("measure every section the report defines", () => {
    const measured = new Set(STEPS.flatMap((step) => step.sections));
    expect(SECTIONS.map((section) => section.id).filter((id) => !measured.has(id))).toEqual([]);
  });
});

import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative, resolve, sep } from "node:path";
import { APPS, type LayerRule, SHARED_TEST_TOOLS } from "./rules.js";

/** One workspace package as the check sees it. */
export interface WorkspacePackage {
  name: string;
  /** Absolute folder of the package. */
  dir: string;
  dependencies: string[];
  devDependencies: string[];
  files: { path: string; imports: string[] }[];
}

export interface Violation {
  package: string;
  where: string;
  message: string;
}

const IMPORT_PATTERNS = [
  /\b(?:import|export)\s+(?:type\s+)?[^'"`;]*?\bfrom\s*["']([^"']+)["']/g,
  /^\s*import\s*["']([^"']+)["']/gm,
  /\bimport\(\s*["']([^"']+)["']\s*\)/g,
  /\brequire\(\s*["']([^"']+)["']\s*\)/g,
];

/** Every module specifier a TypeScript source imports, exports from, or loads dynamically. */
export function findImports(source: string): string[] {
  const found = new Set<string>();
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of source.matchAll(pattern)) found.add(match[1]!);
  }
  return [...found];
}

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith("node:") || builtinModules.includes(specifier.split("/")[0]!);
}

/** "@scope/name/sub" -> "@scope/name"; "name/sub" -> "name". */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

function isTestFile(path: string): boolean {
  return (
    /\.test\.ts$/.test(path) || /^(test|bench)\//.test(path) || path.includes("/test-support/")
  );
}

function checkDependencies(pkg: WorkspacePackage, rule: LayerRule, out: Violation[]): void {
  const allowsAll = rule.allowed.includes("*");
  for (const dep of pkg.dependencies) {
    if (APPS.includes(dep)) {
      out.push({ package: pkg.name, where: "package.json", message: `depends on app ${dep}` });
    } else if (!allowsAll && !rule.allowed.includes(dep)) {
      out.push({ package: pkg.name, where: "package.json", message: `may not depend on ${dep}` });
    }
  }
  for (const dep of pkg.devDependencies) {
    const isWorkspace = dep.startsWith("@bounded-mcp/") || APPS.includes(dep);
    const isSharedTool = SHARED_TEST_TOOLS.includes(dep);
    if (
      APPS.includes(dep) ||
      (isWorkspace && !isSharedTool && !allowsAll && !rule.allowed.includes(dep))
    ) {
      out.push({
        package: pkg.name,
        where: "package.json",
        message: `may not depend on ${dep} (devDependencies)`,
      });
    }
  }
}

/** Why one import breaks the package's rule, or null when it is allowed. */
function importViolation(
  pkg: WorkspacePackage,
  rule: LayerRule,
  file: string,
  specifier: string,
): string | null {
  if (specifier.startsWith(".")) {
    const target = resolve(pkg.dir, file, "..", specifier);
    if (!target.startsWith(pkg.dir + sep)) return `imports outside its package: ${specifier}`;
    for (const folder of Object.values(rule.scoped ?? {})) {
      const inside = (path: string) => path.startsWith(join(pkg.dir, "src", folder) + sep);
      if (inside(target) && !inside(join(pkg.dir, file))) {
        return `imports the ${folder}/ entry from outside it: ${specifier}`;
      }
    }
    return null;
  }
  if (isBuiltin(specifier)) {
    const name = specifier.startsWith("node:") ? specifier : `node:${specifier}`;
    const forbidden = rule.builtins && !isTestFile(file) && !rule.builtins.includes(name);
    return forbidden ? `may not use the Node built-in ${name}` : null;
  }
  const name = packageNameOf(specifier);
  if (name === pkg.name) return null;
  if (APPS.includes(name)) return `imports app ${name}`;
  const test = isTestFile(file);
  if (!test && specifier === `${name}/testing`) {
    return `imports the test helpers ${specifier} from production code`;
  }
  const allowed =
    rule.allowed.includes("*") ||
    rule.allowed.includes(name) ||
    (test && (SHARED_TEST_TOOLS.includes(name) || (rule.testOnly ?? []).includes(name)));
  if (!allowed) return `may not import ${name}`;
  const folder = rule.scoped?.[name] ?? rule.confined?.[name];
  if (folder && !test && !file.startsWith(`src/${folder}/`)) {
    return `imports ${name} outside src/${folder}/`;
  }
  return null;
}

/** Every layering violation of the given packages under the given rules; empty when clean. */
export function checkLayering(
  packages: WorkspacePackage[],
  rules: Record<string, LayerRule>,
): Violation[] {
  const out: Violation[] = [];
  for (const pkg of packages) {
    const rule = rules[pkg.name];
    if (!rule) {
      out.push({ package: pkg.name, where: "package.json", message: "has no layering rule" });
      continue;
    }
    checkDependencies(pkg, rule, out);
    for (const file of pkg.files) {
      for (const specifier of file.imports) {
        const message = importViolation(pkg, rule, file.path, specifier);
        if (message) out.push({ package: pkg.name, where: file.path, message });
      }
    }
  }
  return out;
}

function listSources(dir: string, base: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry);
    if (entry === "node_modules" || entry === "dist") return [];
    if (statSync(path).isDirectory()) return listSources(path, base);
    return /\.(ts|mts|js|mjs)$/.test(entry) ? [relative(base, path)] : [];
  });
}

/** Reads the published workspace packages (packages/*, apps/*) under a repository root. */
export function readWorkspace(root: string): WorkspacePackage[] {
  const packages: WorkspacePackage[] = [];
  for (const group of ["packages", "apps"]) {
    for (const entry of readdirSync(join(root, group))) {
      const dir = join(root, group, entry);
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      const files = ["src", "test", "bench"]
        .flatMap((folder) => listSources(join(dir, folder), dir))
        .map((path) => ({ path, imports: findImports(readFileSync(join(dir, path), "utf8")) }));
      packages.push({
        name: manifest.name,
        dir,
        dependencies: Object.keys({
          ...manifest.dependencies,
          ...manifest.peerDependencies,
          ...manifest.optionalDependencies,
        }),
        devDependencies: Object.keys(manifest.devDependencies ?? {}),
        files,
      });
    }
  }
  return packages;
}

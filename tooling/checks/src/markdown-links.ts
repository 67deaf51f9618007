import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** Folders never searched for Markdown: dependencies, build output, caches and VCS data. */
const SKIPPED_FOLDERS = new Set([
  ".git",
  ".turbo",
  "node_modules",
  "dist",
  "coverage",
  "test-results",
]);

/** A relative link whose target does not exist. */
export interface BrokenLink {
  /** The Markdown file, relative to the root, with `/` separators. */
  file: string;
  /** 1-based line of the link. */
  line: number;
  /** The target as written. */
  target: string;
}

/** Every `*.md` file under `root`, outside SKIPPED_FOLDERS, as absolute paths, sorted. */
export function listMarkdownFiles(root: string): string[] {
  const found: string[] = [];
  const pending = [root];
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) pending.push(path);
      } else if (entry.isFile() && entry.name.endsWith(".md")) {
        found.push(path);
      }
    }
  }
  return found.sort();
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** The text with fenced code blocks and inline code spans blanked, one output line per line. */
function withoutCode(text: string): string {
  let fence: string | null = null;
  const lines = text.split("\n").map((line) => {
    const marker = FENCE.exec(line);
    if (fence === null) {
      if (marker !== null) {
        fence = marker[1] ?? null;
        return "";
      }
      return line.replace(/(`+).+?\1/g, (code) => " ".repeat(code.length));
    }
    const closes =
      marker !== null &&
      (marker[1] ?? "")[0] === fence[0] &&
      (marker[1] ?? "").length >= fence.length &&
      (marker[2] ?? "").trim() === "";
    if (closes) fence = null;
    return "";
  });
  return lines.join("\n");
}

/** Inline links and images `[text](target "title")`, and reference definitions `[id]: target`. */
const INLINE_LINK = /!?\[[^\]\n]*\]\(\s*(<[^>\n]*>|[^\s)]+)(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:\s*(<[^>\n]*>|\S+)/gm;

/** Each link target of a Markdown text with its 1-based line; code is not searched. */
export function extractLinkTargets(text: string): Array<{ target: string; line: number }> {
  const searched = withoutCode(text);
  const targets: Array<{ target: string; line: number; index: number }> = [];
  for (const pattern of [INLINE_LINK, REFERENCE_DEFINITION]) {
    for (const match of searched.matchAll(pattern)) {
      const raw = match[1] ?? "";
      const target = raw.startsWith("<") ? raw.slice(1, -1) : raw;
      const index = match.index ?? 0;
      const line = searched.slice(0, index).split("\n").length;
      targets.push({ target, line, index });
    }
  }
  return targets.sort((a, b) => a.index - b.index).map(({ target, line }) => ({ target, line }));
}

/** True for a target that leaves the repository or stays on the page: a URL, mail, an anchor. */
function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#") || target.startsWith("//");
}

/** The file or folder a relative target names, resolved against the linking file's folder. */
function resolveTarget(file: string, target: string, root: string): string {
  const encoded = target.split("#")[0] ?? "";
  let path = encoded;
  try {
    path = decodeURI(encoded);
  } catch {
    // A malformed escape is looked up as written, and so reported when no such file exists.
  }
  return path.startsWith("/") ? join(root, path) : resolve(dirname(file), path);
}

/**
 * Every relative link of every Markdown file under `root` (see listMarkdownFiles) whose file or
 * folder does not exist. URLs, `mailto:` and in-page anchors are not checked, nor is the anchor
 * part of `file.md#section` (only the file); links inside code are not links. Targets starting
 * with `/` are read from the root, as a repository host shows them.
 */
export function findBrokenLinks(root: string): BrokenLink[] {
  const broken: BrokenLink[] = [];
  for (const file of listMarkdownFiles(root)) {
    for (const { target, line } of extractLinkTargets(readFileSync(file, "utf8"))) {
      if (target === "" || isExternal(target)) continue;
      if (existsSync(resolveTarget(file, target, root))) continue;
      broken.push({ file: relative(root, file).split(sep).join("/"), line, target });
    }
  }
  return broken;
}

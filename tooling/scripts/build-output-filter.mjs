/**
 * Holds pnpm 12's piped dependency-build lines (".../node_modules/<name> <script>$ command",
 * ".../node_modules/<name> <script>: output") per package and script until the build's last line:
 * "Done" drops them, "Failed" writes them all; a build still open at `end()` is written too.
 * Every other line is written at once. Why: tooling/scripts/install.mjs. Limits: recognises
 * pnpm 12.4.2's prefix format only; a line is one call of `line()`, without its newline.
 */
export function createBuildOutputFilter(write) {
  const BUILD_LINE = /^(\S*node_modules\/\S+) (\w+)(?:\$|:) ?(.*)$/;
  const held = new Map();
  return {
    line(text) {
      const match = BUILD_LINE.exec(text);
      if (match === null) {
        write(`${text}\n`);
        return;
      }
      const key = `${match[1]} ${match[2]}`;
      const lines = held.get(key) ?? [];
      lines.push(text);
      held.set(key, lines);
      const last = match[3].trim();
      if (last === "Done") held.delete(key);
      else if (last === "Failed") {
        write(`${lines.join("\n")}\n`);
        held.delete(key);
      }
    },
    end() {
      for (const lines of held.values()) write(`${lines.join("\n")}\n`);
      held.clear();
    },
  };
}

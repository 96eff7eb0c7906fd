// marked-terminal imports cli-highlight (highlight.js 10 with every language) for code blocks;
// ochat renders code blocks itself (src/ui/markdown/highlight-code.ts), so the bundle gets this.
export function highlight(code) {
  return code;
}

/**
 * Markdown → ANSI terminal text for committed assistant blocks. marked, marked-terminal and
 * cli-highlight take noticeable time to import, so they are loaded lazily after the first frame.
 */

import type { Marked } from 'marked';

/** Renders a markdown block as styled terminal text wrapped to `width` columns. */
export type MarkdownRenderer = (markdown: string, width: number) => string;

let loading: Promise<MarkdownRenderer> | undefined;
let loaded: MarkdownRenderer | undefined;

// Renderers hold their width in their options, so keep one per width (terminals rarely resize).
async function createRenderer(): Promise<MarkdownRenderer> {
  const [{ Marked: MarkedClass }, { markedTerminal }, highlighter] = await Promise.all([
    import('marked'),
    import('marked-terminal'),
    import('cli-highlight'),
  ]);
  // cli-highlight is CommonJS: in the bundle its dynamic import has only `default` (its exports).
  const supportsLanguage = highlighter.supportsLanguage ?? highlighter.default.supportsLanguage;
  const byWidth = new Map<number, Marked>();
  const markedFor = (width: number) => {
    let marked = byWidth.get(width);
    if (!marked) {
      marked = new MarkedClass().use(markedTerminal({ width, reflowText: true, emoji: false, tab: 2 }));
      // marked-terminal (7.x with marked 15) prints the raw `**x**` of tight list items: their
      // text tokens carry inline tokens it never parses. Parse them; otherwise defer to it.
      marked.use({
        // highlight.js console.errors on a language it does not know (the model chooses the
        // fence's info string); such blocks are shown unhighlighted instead.
        walkTokens(token) {
          if (token.type === 'code' && token.lang && !supportsLanguage(token.lang)) token.lang = '';
        },
        renderer: {
          text(token) {
            return 'tokens' in token && token.tokens ? this.parser.parseInline(token.tokens) : false;
          },
        },
      });
      byWidth.set(width, marked);
    }
    return marked;
  };
  return (markdown, width) => {
    const rendered = markedFor(Math.max(10, Math.floor(width))).parse(markdown, { async: false });
    return trimTrailingBlankLines(rendered);
  };
}

/** Drops trailing whitespace while keeping any style-reset codes that sit among it. */
function trimTrailingBlankLines(text: string): string {
  return text.replace(/(?:\s|\x1b\[[0-9;]*m)+$/, (tail) => tail.replace(/\s+/g, ''));
}

/** Loads the renderer once (later calls share the same promise); call it after the first frame. */
export function loadMarkdownRenderer(): Promise<MarkdownRenderer> {
  loading ??= createRenderer().then((renderer) => {
    loaded = renderer;
    return renderer;
  });
  return loading;
}

/** Whether {@link renderMarkdownSync} can be used yet. */
export function isMarkdownRendererLoaded(): boolean {
  return loaded !== undefined;
}

/** Renders with the loaded renderer; throws if {@link loadMarkdownRenderer} has not finished. */
export function renderMarkdownSync(markdown: string, width: number): string {
  if (!loaded) throw new Error('renderMarkdownSync called before loadMarkdownRenderer() resolved');
  return loaded(markdown, width);
}

/**
 * Renders markdown as terminal text once the renderer is loaded; before that (the first frames)
 * returns the source unchanged, so callers never block on the import.
 */
export function renderMarkdown(markdown: string, width: number): string {
  return loaded ? loaded(markdown, width) : markdown;
}

/**
 * Markdown → ANSI terminal text for committed assistant blocks. marked, marked-terminal and the
 * highlighter take noticeable time to import, so they are loaded lazily after the first frame.
 */

import chalk from 'chalk';
import type { Marked } from 'marked';

/** Renders a markdown block as styled terminal text wrapped to `width` columns. */
export type MarkdownRenderer = (markdown: string, width: number) => string;

let loading: Promise<MarkdownRenderer> | undefined;
let loaded: MarkdownRenderer | undefined;

const CODE_INDENT = '  ';
// As marked-terminal styles addresses.
const linkStyle = chalk.blue.underline;

/**
 * Blocks longer than this are shown as plain text: marked-terminal's reflow is quadratic in a
 * paragraph's length with inline styling (quadratic: a 1 MB paragraph takes minutes), and a
 * ~10 MB paragraph overflowed the stack.
 */
export const MAX_RENDERED_CHARS = 32 * 1024;

// Renderers hold their width in their options, so keep one per width (terminals rarely resize).
async function createRenderer(): Promise<MarkdownRenderer> {
  const [{ Marked: MarkedClass }, { markedTerminal }, { highlightCode }] = await Promise.all([
    import('marked'),
    import('marked-terminal'),
    import('./highlight-code.js'),
  ]);
  const byWidth = new Map<number, Marked>();
  const markedFor = (width: number) => {
    let marked = byWidth.get(width);
    if (!marked) {
      marked = new MarkedClass().use(markedTerminal({ width, reflowText: true, emoji: false, tab: 2 }));
      marked.use({
        renderer: {
          // Ours, not marked-terminal's: it would call cli-highlight (highlight.js 10).
          // Framed above and below by rules (the top one labelled with the language), which
          // show without colour too; the code itself is not indented, so a terminal selection
          // copies it as written.
          code(token) {
            const language = token.lang?.match(/^\S*/)?.[0];
            const text = token.text.replace(/\t/g, CODE_INDENT);
            const body = highlightCode(text, language);
            return `${codeFrame('top', width, language)}\n${body}\n${codeFrame('bottom', width)}\n\n`;
          },
          // The address always shows: marked-terminal writes a terminal hyperlink (OSC 8) where
          // it thinks the terminal supports one, which hides the address behind the text.
          link(token) {
            const text = this.parser.parseInline(token.tokens);
            const href = linkStyle(token.href);
            return text && text !== token.href ? `${text} (${href})` : href;
          },
          // marked-terminal (7.x with marked 15) prints the raw `**x**` of tight list items: their
          // text tokens carry inline tokens it never parses. Parse them; otherwise defer to it.
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
    if (markdown.length > MAX_RENDERED_CHARS) return markdown;
    try {
      const rendered = markedFor(Math.max(10, Math.floor(width))).parse(markdown, { async: false });
      return trimTrailingBlankLines(rendered);
    } catch {
      // A renderer bug must never take the conversation down: the text itself is still worth showing.
      return markdown;
    }
  };
}

/** Longest language label shown on a code block's frame. */
const MAX_LABEL = 24;

/** A code block's top rule (`╭─ python ───…`) or bottom rule (`╰───…`), dimmed, at most 80 columns. */
export function codeFrame(edge: 'top' | 'bottom', width: number, language?: string): string {
  const columns = Math.max(10, Math.min(80, Math.floor(width)));
  const label = language ? `─ ${language.slice(0, MAX_LABEL)} ` : '';
  const corner = edge === 'top' ? '╭' : '╰';
  return chalk.dim(`${corner}${label}${'─'.repeat(Math.max(3, columns - 1 - label.length))}`);
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

/**
 * Renders markdown as terminal text once the renderer is loaded; before that (the first frames)
 * returns the source unchanged, so callers never block on the import.
 */
export function renderMarkdown(markdown: string, width: number): string {
  return loaded ? loaded(markdown, width) : markdown;
}

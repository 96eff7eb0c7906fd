// marked-terminal ships no type declarations; this covers the one export ochat uses.
declare module 'marked-terminal' {
  import type { MarkedExtension } from 'marked';

  /** Options of marked-terminal's renderer (only those ochat sets are typed precisely). */
  export interface TerminalRendererOptions {
    width?: number;
    reflowText?: boolean;
    emoji?: boolean;
    tab?: number;
    showSectionPrefix?: boolean;
    [option: string]: unknown;
  }

  /** Builds a marked extension that renders markdown as ANSI-styled terminal text. */
  export function markedTerminal(
    options?: TerminalRendererOptions,
    highlightOptions?: Record<string, unknown>,
  ): MarkedExtension;
}

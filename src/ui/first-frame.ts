/**
 * The first frame, drawn before Ink, React and yoga are loaded (loading them is most of the
 * start-up): the empty prompt and the status line, as the chat screen renders its initial state.
 * Ink's first render replaces it in one synchronized update. Keys typed meanwhile wait in the
 * terminal (raw mode: no echo over the frame, no Ctrl+C signal) and reach the app once it reads
 * its input; pastes come bracketed.
 */
// chalk's own colour decision (its vendored supports-color, which chalk's level is read from), not
// chalk: its styles (ansi-styles, the styler: ~0.5 ms CPU) load after the frame, with the UI.
import supportsColor from '../../node_modules/chalk/source/vendor/supports-color/index.js';
import { sanitizeTerminalText } from '../text/sanitize.js';
import { cursorCell } from './cursor-cell.js';
import { disableBracketedPaste, enableBracketedPaste } from './input/bracketed-paste.js';

/** The empty prompt's hint (the prompt component shows it too). */
export const PROMPT_PLACEHOLDER = 'Type a message · / for commands · \\ + enter for a new line';

/** The status line's model name before a model is known. */
export const NO_MODEL_LABEL = 'no model';

/** A terminal to draw on: process.stdout and process.stdin, or the same before they exist. */
export interface FirstFrameTerminal {
  stdout: { write(data: string): unknown; columns?: number };
  stdin: { isTTY?: boolean; setRawMode?(raw: boolean): unknown };
  /** Hands the terminal over to process.stdin and stdout (platform/early-terminal.ts). */
  switchToStreams?(): void;
}

/** A drawn first frame, to be replaced by the real UI. */
export interface FirstFrame {
  /** Erases the frame and starts a synchronized update that the UI's first render ends. */
  handOver(): void;
}

const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';
const BEGIN_SYNCHRONIZED_UPDATE = '\x1b[?2026h';

/**
 * `text` dimmed as chalk.dim writes it at a colour level above 0 (`text` holds no escape: the
 * sanitizer let none through): closed before each line break and reopened after it.
 */
function dim(text: string): string {
  if (!text) return '';
  return `\x1b[2m${text.replace(/(\r?\n)/g, '\x1b[22m$1\x1b[2m')}\x1b[22m`;
}

/** The frame's lines, styled: a blank line (the prompt's top margin), the prompt, the status. */
export function firstFrameLines(model: string | undefined): string[] {
  const name = sanitizeTerminalText(model ?? NO_MODEL_LABEL);
  // chalk's level is stdout's; at level 0 it writes no style (but the cursor's, not chalk's).
  if (!supportsColor.stdout) return ['', `› ${cursorCell(' ')}${PROMPT_PLACEHOLDER}`, name];
  return ['', `\x1b[1m\x1b[36m›\x1b[39m\x1b[22m ${cursorCell(' ')}${dim(PROMPT_PLACEHOLDER)}`, dim(name)];
}

/**
 * Draws the first frame; undefined (nothing drawn) when the terminal is too narrow for it to
 * look as the UI will, since the UI truncates lines that do not fit.
 */
export function drawFirstFrame(
  terminal: FirstFrameTerminal,
  model: string | undefined,
  /** What was typed before raw mode (platform/typeahead.ts), for the process's own terminal. */
  takeTypeahead?: () => Buffer | undefined,
): FirstFrame | undefined {
  const { stdout, stdin } = terminal;
  const widest = Math.max(
    2 + 1 + PROMPT_PLACEHOLDER.length,
    sanitizeTerminalText(model ?? NO_MODEL_LABEL).length,
  );
  if (!stdin.isTTY || !stdin.setRawMode || (stdout.columns ?? 0) <= widest) return undefined;
  stdin.setRawMode(true);
  // Typed in line mode, before this: given back to the UI's input first, its Enters as Enter.
  const typedAhead = takeTypeahead?.();
  const lines = firstFrameLines(model);
  // Bracketed paste from the first frame on: a paste that arrives before the UI reads its input
  // waits in the terminal wrapped in its markers, so a 0x03 or CR inside it is text, not a key.
  enableBracketedPaste(stdout);
  stdout.write(`${HIDE_CURSOR}${lines.join('\n')}\n`);
  // If ochat ends before the UI takes over, leave the terminal as it was found.
  const restore = () => {
    stdin.setRawMode?.(false);
    stdout.write(SHOW_CURSOR);
    disableBracketedPaste(stdout);
  };
  process.once('exit', restore);
  return {
    handOver() {
      process.off('exit', restore);
      terminal.switchToStreams?.();
      if (typedAhead) process.stdin.unshift(typedAhead);
      // The cursor is on the line below the frame: clear it and each frame line going up.
      const erase = `\x1b[2K${'\x1b[1A\x1b[2K'.repeat(lines.length)}\x1b[G`;
      stdout.write(`${BEGIN_SYNCHRONIZED_UPDATE}${erase}`);
    },
  };
}

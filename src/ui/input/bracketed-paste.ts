/**
 * Bracketed paste: the terminal wraps pasted text in `ESC[200~ … ESC[201~`, which lets the editor
 * tell a pasted line break from Enter. The app turns the mode on at start and off at exit.
 */

/** Anything that accepts terminal output, such as `process.stdout`. */
export interface TerminalOutput {
  write(data: string): unknown;
}

/** Sent by the terminal before pasted text. */
export const PASTE_START = '\x1b[200~';
/** Sent by the terminal after pasted text. */
export const PASTE_END = '\x1b[201~';

/** Asks the terminal to bracket pastes; call once the UI is up. */
export function enableBracketedPaste(stdout: TerminalOutput): void {
  stdout.write('\x1b[?2004h');
}

/**
 * Asks whether the terminal supports bracketed paste (DECRQM for mode 2004). A terminal that knows
 * the mode answers `CSI ? 2004 ; Ps $ y` on its input; one that does not may never answer, so
 * nothing waits for it: the unbracketed-paste heuristic applies until an answer says otherwise.
 */
export function queryBracketedPaste(stdout: TerminalOutput): void {
  stdout.write('\x1b[?2004$p');
}

// The DECRPM answer for mode 2004 (Ink hands escape sequences over with the ESC stripped).
const BRACKETED_PASTE_REPORT = /^\x1b?\[\?2004;(\d+)\$y$/;

/**
 * Reads the terminal's answer to {@link queryBracketedPaste}: true when the mode is supported
 * (set, reset or permanently set), false when not recognised or permanently off, undefined when
 * `input` is not that answer.
 */
export function readBracketedPasteReport(input: string): boolean | undefined {
  const match = BRACKETED_PASTE_REPORT.exec(input);
  if (!match) return undefined;
  const status = Number(match[1]);
  return status >= 1 && status <= 3;
}

/** Restores normal paste behaviour; call on every exit path, or the user's shell inherits the mode. */
export function disableBracketedPaste(stdout: TerminalOutput): void {
  stdout.write('\x1b[?2004l');
}

/**
 * The largest paste taken, in characters: more than any message could ever be sent whole. The
 * largest windows of local models are 1 M tokens; at 4 characters a token that is 4 M characters,
 * and twice that is the margin (a `-p` reads at most 8 MB of piped input too). A 30 MB paste held
 * 1.2 GB; one over this is refused, with a word, and not kept while it arrives.
 */
export const MAX_PASTE_CHARS = 8 * 1024 * 1024;

/** What the editor knows about pastes; kept across input events. */
export interface PasteState {
  /** Between a paste's start and end markers. */
  active: boolean;
  /**
   * The terminal has been seen to bracket pastes (a marker arrived): from then on only text inside
   * markers is a paste and every Enter outside them submits.
   */
  bracketed: boolean;
  /** The text of the paste being received, handed over whole at its end marker. */
  text: string;
  /** Characters of the paste being received past MAX_PASTE_CHARS (then `text` is dropped). */
  over: number;
  /** When the last chunk taken for an unbracketed paste arrived (ms), to join its next reads. */
  unbracketedAt?: number;
}

/** A fresh paste tracker for one input handler. */
export function createPasteState(): PasteState {
  return { active: false, bracketed: false, text: '', over: 0 };
}

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

/** Restores normal paste behaviour; call on every exit path, or the user's shell inherits the mode. */
export function disableBracketedPaste(stdout: TerminalOutput): void {
  stdout.write('\x1b[?2004l');
}

/** What the editor knows about pastes; kept across input events. */
export interface PasteState {
  /** Between a paste's start and end markers. */
  active: boolean;
  /**
   * The terminal has been seen to bracket pastes (a marker arrived): from then on only text inside
   * markers is a paste and every Enter outside them submits.
   */
  bracketed: boolean;
}

/** A fresh paste tracker for one input handler. */
export function createPasteState(): PasteState {
  return { active: false, bracketed: false };
}

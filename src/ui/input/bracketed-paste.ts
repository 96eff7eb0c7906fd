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

/** Whether the editor is between a paste's start and end markers; kept across input events. */
export interface PasteState {
  active: boolean;
}

/** A fresh paste tracker for one input handler. */
export function createPasteState(): PasteState {
  return { active: false };
}

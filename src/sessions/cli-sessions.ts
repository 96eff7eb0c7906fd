import { sanitizeTerminalText } from '../text/sanitize.js';
import { formatSessionList } from './format-session-list.js';
import type { UnreadableSession } from './session-index.js';
import { SessionFileError, SessionNotFoundError, SessionStore, sessionsDir } from './session-store.js';

/** `ochat --list-sessions`: prints the saved sessions; returns the exit code. */
export function listSessions(env: NodeJS.ProcessEnv): number {
  const store = new SessionStore(sessionsDir(env));
  const { sessions, unreadable } = store.index();
  const list = sessions.length || !unreadable.length ? `${formatSessionList(sessions)}\n` : '';
  process.stdout.write(sanitizeTerminalText(`${list}${describeUnreadable(unreadable)}`));
  return 0;
}

/** The files of the sessions directory that are not sessions, one line each (empty when none). */
function describeUnreadable(unreadable: readonly UnreadableSession[]): string {
  if (unreadable.length === 0) return '';
  const lines = unreadable.map((file) => `  ${file.path}: ${file.reason}`);
  const count = unreadable.length === 1 ? 'A file' : `${unreadable.length} files`;
  return `${count} in the sessions directory cannot be opened as a session:\n${lines.join('\n')}\n`;
}

/**
 * Why `--resume <query>` cannot start, or undefined when it can: said before the chat opens, so a
 * typo in an id is a one-line error, not a chat that silently starts empty.
 */
export function checkResumable(
  query: string | true,
  env: NodeJS.ProcessEnv,
  cwd: string,
): string | undefined {
  const store = new SessionStore(sessionsDir(env));
  if (query === true) {
    const { sessions, unreadable } = store.index();
    if (sessions.some((s) => s.cwd === cwd)) return undefined;
    const none =
      'no saved session was started in this directory. ochat --list-sessions lists them all; ochat -r <id> resumes one.';
    // Any of these may be this directory's: say they exist and why they cannot be opened.
    // File names are anyone's bytes: sanitized like everything else bound for the terminal.
    return unreadable.length
      ? sanitizeTerminalText(`${none}\n${describeUnreadable(unreadable).trimEnd()}`)
      : none;
  }
  try {
    store.find(query);
    return undefined;
  } catch (error) {
    if (error instanceof SessionNotFoundError || error instanceof SessionFileError)
      return sanitizeTerminalText(error.message);
    throw error;
  }
}

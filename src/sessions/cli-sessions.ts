import { sanitizeTerminalText } from '../text/sanitize.js';
import { formatSessionList } from './format-session-list.js';
import { SessionNotFoundError, SessionStore, sessionsDir } from './session-store.js';

/** `ochat --list-sessions`: prints the saved sessions; returns the exit code. */
export function listSessions(env: NodeJS.ProcessEnv): number {
  const store = new SessionStore(sessionsDir(env));
  process.stdout.write(`${sanitizeTerminalText(formatSessionList(store.list()))}\n`);
  return 0;
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
    return store.newestIn(cwd)
      ? undefined
      : 'no saved session was started in this directory. ochat --list-sessions lists them all; ochat -r <id> resumes one.';
  }
  try {
    store.find(query);
    return undefined;
  } catch (error) {
    if (error instanceof SessionNotFoundError) return error.message;
    throw error;
  }
}

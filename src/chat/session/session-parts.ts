import { type ChatBackend, serverName } from '../../backend/chat-backend.js';
import type { Conversation } from '../../conversation/conversation.js';
import type { SessionStore } from '../../sessions/session-store.js';
import { describeError } from '../../text/describe-error.js';
import type { ModelSettings } from '../request/model-settings.js';
import type { RequestBuilder } from '../request/request-builder.js';
import type { ScreenLog } from '../state/screen-log.js';
import { SessionKeeper } from './session-keeper.js';

/**
 * The session file's keeper, made before the parts that record into it (compaction failures, tool
 * starts); a failure to write is said once and the chat goes on, its lines kept until writing works.
 */
export function createSessionKeeper(input: {
  sessions: SessionStore | undefined;
  backend: ChatBackend;
  cwd: string;
  now: () => Date;
  conversation: Conversation;
  settings: ModelSettings;
  requests: RequestBuilder;
  screen: ScreenLog;
}): SessionKeeper {
  const { backend, screen } = input;
  return new SessionKeeper({
    store: input.sessions,
    // Read when the file is made: an OpenAI-compatible server's name is known once it answered.
    server: () => ({ api: backend.server?.api ?? 'ollama', name: serverName(backend), url: backend.host }),
    cwd: input.cwd,
    now: input.now,
    conversation: input.conversation,
    settings: input.settings,
    requests: input.requests,
    onError: (error) =>
      screen.notice(
        'warning',
        `The session cannot be saved: ${describeError(error)}. The chat goes on; what is said is kept and saved once writing works again.`,
      ),
    onRecovered: (lines) =>
      screen.notice(
        'info',
        `The session is saved again (${lines} line${lines === 1 ? '' : 's'} kept meanwhile written).`,
      ),
  });
}

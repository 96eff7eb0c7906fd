import { ChatController, type ChatControllerDeps } from './chat/chat-controller.js';
import { AppState } from './config/app-state.js';
import { OllamaClient } from './ollama/client.js';
import { SessionStore, sessionsDir } from './sessions/session-store.js';
import type { RunSettings } from './settings.js';
import { BUILTIN_TOOLS, createToolRegistry } from './tools/registry.js';

/** Builds a controller from resolved settings: the one place the real client, state and tools are made. */
export async function createChatController(
  settings: RunSettings,
  extra: Pick<ChatControllerDeps, 'onExit' | 'onReplyDelta' | 'autoConfirm' | 'interactive' | 'store'>,
): Promise<ChatController> {
  const { config, flags, host } = settings;
  const appState = new AppState();
  // The state file (conf, with ajv and semver: ~60 ms) opens now in a chat, whose first frame is
  // drawn; a one-shot opens it after its reply, unless it must pick the last-used model from it.
  if (extra.interactive !== false || !(flags.model ?? config.model)) await appState.open();
  return new ChatController({
    backend: new OllamaClient({ host, requestTimeoutMs: config.request_timeout_s * 1000 }),
    config,
    appState,
    tools: createToolRegistry(BUILTIN_TOOLS, { enabled: config.tools.enabled }),
    cwd: process.cwd(),
    flags: { model: flags.model, numCtx: flags.numCtx },
    // One-shot runs are not saved: a script's prompts would bury the user's sessions.
    sessions: extra.interactive === false ? undefined : new SessionStore(sessionsDir(process.env)),
    resume: flags.resume,
    ...extra,
  });
}

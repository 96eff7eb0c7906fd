import { ChatController, type ChatControllerDeps } from './chat/chat-controller.js';
import { AppState } from './config/app-state.js';
import { OllamaClient } from './ollama/client.js';
import { SessionStore, sessionsDir } from './sessions/session-store.js';
import type { RunSettings } from './settings.js';
import { BUILTIN_TOOLS, createToolRegistry } from './tools/registry.js';

/** Builds a controller from resolved settings: the one place the real client, state and tools are made. */
export function createChatController(
  settings: RunSettings,
  extra: Pick<ChatControllerDeps, 'onExit' | 'onReplyDelta' | 'autoConfirm' | 'interactive' | 'store'>,
): ChatController {
  const { config, flags, host } = settings;
  return new ChatController({
    backend: new OllamaClient({ host, requestTimeoutMs: config.request_timeout_s * 1000 }),
    config,
    appState: new AppState(),
    tools: createToolRegistry(BUILTIN_TOOLS, { enabled: config.tools.enabled }),
    cwd: process.cwd(),
    flags: { model: flags.model, numCtx: flags.numCtx },
    // One-shot runs are not saved: a script's prompts would bury the user's sessions.
    sessions: extra.interactive === false ? undefined : new SessionStore(sessionsDir(process.env)),
    resume: flags.resume,
    ...extra,
  });
}

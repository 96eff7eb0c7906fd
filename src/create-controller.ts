import { ChatController, type ChatControllerDeps } from './chat/chat-controller.js';
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
  // conf brings ajv, ajv-formats, semver and atomically: its own chunk, loaded only once a
  // controller is made, never before the first frame.
  const { AppState } = await import('./config/app-state.js');
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

import { ChatController } from '../chat/chat-controller.js';
import type { ChatControllerDeps } from '../chat/chat-parts.js';
import type { RunSettings } from '../cli/settings.js';
import { BUILTIN_COMMANDS } from '../commands/builtin-commands.js';
import { AppState } from '../config/app-state.js';
import { SessionStore, sessionsDir } from '../sessions/session-store.js';
import { BUILTIN_TOOLS, createToolRegistry } from '../tools/registry.js';
import { createBackend } from './create-backend.js';

/** Builds a controller from resolved settings: the one place the real client, state and tools are made. */
export async function createChatController(
  settings: RunSettings,
  extra: Pick<
    ChatControllerDeps,
    | 'onExit'
    | 'onReplyDelta'
    | 'autoConfirm'
    | 'interactive'
    | 'store'
    | 'columns'
    | 'pickSession'
    | 'copyToClipboard'
  >,
): Promise<ChatController> {
  const { config, flags } = settings;
  // State problems (a corrupt file kept aside, a failed write) are told once, as a warning.
  let controller: ChatController | undefined;
  const stateErrors: Error[] = [];
  const appState = new AppState({
    onError: (error) => (controller ? warnAboutState(controller, error) : stateErrors.push(error)),
  });
  // The state file (conf, with ajv and semver, takes long to load) opens now in a chat, whose first frame is
  // drawn; a one-shot opens it after its reply, unless it must pick the last-used model from it.
  if (extra.interactive !== false || !(flags.model ?? config.model)) await appState.open();
  const backend = await createBackend(settings, appState);
  controller = new ChatController({
    backend,
    config,
    appState,
    tools: createToolRegistry(BUILTIN_TOOLS, { enabled: config.tools.enabled }),
    commands: BUILTIN_COMMANDS,
    cwd: process.cwd(),
    flags: { model: flags.model, numCtx: flags.numCtx },
    // One-shot runs are not saved: a script's prompts would bury the user's sessions.
    sessions: extra.interactive === false ? undefined : new SessionStore(sessionsDir(process.env)),
    resume: flags.resume,
    ...extra,
  });
  for (const error of stateErrors) warnAboutState(controller, error);
  return controller;
}

function warnAboutState(controller: ChatController, error: Error): void {
  controller.host.screen.notice(
    'warning',
    `ochat's saved state: ${error.message}. Going on; history and settings may not be kept.`,
  );
}

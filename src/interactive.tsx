import { render } from 'ink';
import { createChatController } from './chat/create-controller.js';
import { BUILTIN_COMMANDS } from './commands/builtin-commands.js';
import type { RunSettings } from './settings.js';
import { ChatApp } from './ui/chat-app.js';
import { disableBracketedPaste, enableBracketedPaste } from './ui/input/bracketed-paste.js';
import { loadMarkdownRenderer } from './ui/markdown/render-markdown.js';

/** Runs the interactive chat until the user quits. */
export async function runInteractive(settings: RunSettings): Promise<void> {
  let unmount = () => {};
  const controller = createChatController(settings, { onExit: () => unmount() });
  enableBracketedPaste(process.stdout);
  const restoreTerminal = () => disableBracketedPaste(process.stdout);
  process.once('exit', restoreTerminal);
  const instance = render(
    <ChatApp model={controller} commands={BUILTIN_COMMANDS} history={controller.history()} />,
    // Ctrl+C must reach the app: it cancels a reply before it quits.
    { exitOnCtrlC: false, patchConsole: true },
  );
  unmount = () => instance.unmount();
  // After the first frame: load the markdown renderer while connecting, before any reply arrives.
  void controller.start(loadMarkdownRenderer());
  await instance.waitUntilExit();
  restoreTerminal();
  // Keep-alive sockets to the server would hold the process open.
  process.exit(0);
}

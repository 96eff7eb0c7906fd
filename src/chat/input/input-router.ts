import type { SlashCommand } from '../../commands/command.js';
import type { CommandHost } from '../../commands/command-host.js';
import { dispatchCommand, findCommand, parseSlashCommand } from '../../commands/dispatch.js';
import type { AppState } from '../../config/app-state.js';
import type { DialogQueue } from '../state/dialog-queue.js';
import type { ScreenLog } from '../state/screen-log.js';
import type { Store } from '../state/store.js';
import type { ChatViewState } from '../state/view-state.js';
import type { WorkQueue } from '../state/work-queue.js';
import type { TurnOutcome } from '../turn/turn-outcome.js';
import type { MessageSender } from './message-sender.js';
import { parseShellInput, shellHint } from './shell-input.js';
import type { ShellRunner } from './shell-runner.js';

/** What the router works with. */
export interface InputRouterDeps {
  store: Store<ChatViewState>;
  /** The slash commands the user may type. */
  commands: readonly SlashCommand[];
  host: CommandHost;
  appState: AppState;
  cwd: string;
  screen: ScreenLog;
  dialogs: DialogQueue;
  queue: WorkQueue;
  sender: MessageSender;
  shell: ShellRunner;
  /** False in one-shot mode: the prompt is not typed, so it is neither recalled nor run as a command. */
  interactive: boolean;
}

/**
 * Where an Enter goes: an open instruction dialog, a retry, a slash command (at once when it may
 * run while a reply streams, else in turn), a `!command`, or a message — each in the work queue.
 */
export class InputRouter {
  constructor(private readonly deps: InputRouterDeps) {}

  /**
   * The user pressed Enter on `text` (already trimmed of the trailing newline). Resolves, once it
   * has run, with what a message came to; a command line that ended in an error comes to
   * `failed`; anything else (a command, a `!command`, a dialog's answer, a retry) to undefined.
   */
  async submit(text: string): Promise<TurnOutcome | undefined> {
    const { store, dialogs, appState, queue, sender, interactive } = this.deps;
    const trimmed = text.trim();
    if (store.get().dialog?.kind === 'tool-instruction') {
      dialogs.answer(trimmed);
      return undefined;
    }
    if (!trimmed) {
      this.retry();
      return undefined;
    }
    // A one-shot prompt (or a pipe's worth of stdin) is not something to recall with ↑.
    if (interactive) appState.pushHistory(text);
    // Only what the user types runs as a command: never a one-shot prompt (piped text).
    if (interactive && this.submitShellInput(text)) return undefined;
    if (trimmed.startsWith('/') && this.runsWhileBusy(trimmed))
      return commandOutcome(await this.runCommand(trimmed));
    let outcome: TurnOutcome | undefined;
    await queue.enqueue(async () => {
      if (!trimmed.startsWith('/')) outcome = await sender.send(text);
      // `//` escapes the slash: the message is sent with one `/` (e.g. `//etc/hosts — what is it?`).
      else if (trimmed.startsWith('//')) outcome = await sender.send(text.replace('//', '/'));
      else outcome = commandOutcome(await this.runCommand(trimmed));
    }, text);
    return outcome;
  }

  /** Esc on an empty prompt: the newest input still waiting comes back to the prompt, unsent. */
  takeBack(): string | undefined {
    return this.deps.queue.takeBack();
  }

  /** Enter on an empty prompt: retries what failed (the connection, or the last turn), else nothing. */
  retry(): void {
    const { queue, sender } = this.deps;
    if (sender.hasRetry) void queue.enqueue(() => sender.retry());
  }

  /** `!command` runs (in turn, like a message); `!` alone explains; `\!` sends a message. False: not shell input. */
  private submitShellInput(text: string): boolean {
    const { screen, cwd, queue, sender, shell } = this.deps;
    const input = parseShellInput(text);
    if (!input) return false;
    if (input.kind === 'hint') screen.notice('info', shellHint(cwd));
    else if (input.kind === 'message')
      void queue.enqueue(async () => {
        await sender.send(input.text);
      }, text);
    else void queue.enqueue(() => shell.run(input.command), text);
    return true;
  }

  /** Runs a command line; false when it failed, or said an error on its way (one-shot exits 1 then). */
  private async runCommand(line: string): Promise<boolean> {
    const { screen, commands, host } = this.deps;
    // Echoed like a message, so the output below it says what asked for it.
    screen.push({ kind: 'user', id: screen.itemId(), text: line });
    const errorsBefore = screen.errorsSaid;
    const ran = await dispatchCommand(commands, host, line);
    return ran && screen.errorsSaid === errorsBefore;
  }

  /** Whether a command line names a command that may run at once, even while a reply streams. */
  private runsWhileBusy(line: string): boolean {
    const parsed = parseSlashCommand(line);
    return Boolean(parsed && findCommand(this.deps.commands, parsed.name)?.runsWhileBusy);
  }
}

/** A command line's outcome: `failed` when it ended in an error, else none (it is not a turn). */
function commandOutcome(ok: boolean): TurnOutcome | undefined {
  return ok ? undefined : { end: 'failed', compactionFailed: false };
}

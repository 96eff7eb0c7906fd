import type { Config } from '../../config/schema.js';
import type { Conversation } from '../../conversation/conversation.js';
import { shellContextText } from '../../conversation/shell-context.js';
import { sanitizeTerminalText } from '../../text/sanitize.js';
import { oneLine } from '../../text/shorten.js';
import { MAX_COMMAND_OUTPUT_CHARS } from '../../tools/builtin/run-command.js';
import { capToolOutput } from '../../tools/cap-output.js';
import { runShell } from '../../tools/run-shell.js';
import { shellEndNote, shellEndOf, shellEndShort, shellSucceeded } from '../../tools/shell-end.js';
import type { AbortSlot } from '../state/abort-slot.js';
import type { ScreenLog } from '../state/screen-log.js';

/** What the shell runner works with. */
export interface ShellRunnerDeps {
  conversation: Conversation;
  screen: ScreenLog;
  abort: AbortSlot;
  /** The directory commands run in. */
  cwd: string;
  /** Read for `max_output_chars`: a command's output is cut for the model as a tool's is. */
  config: Config['tools'];
  /** Called once the run is in the conversation (the context meter shows the new size). */
  onAppended: () => void;
  /** How often the live output is redrawn while a command prints. */
  liveIntervalMs?: number;
}

/** Characters of the newest output shown live: more than any screen shows. */
const LIVE_TAIL_CHARS = 16_000;

/**
 * Runs a `!command` the user typed: in its own process group with stdin empty (so nothing waits
 * on the keyboard), output shown live and kept capped, Ctrl+C stopping the whole group. No time
 * limit: the user is there to stop it. The run then joins the conversation as a user message
 * (the model reads it with the next message) and the screen as a shell item.
 */
export class ShellRunner {
  constructor(private readonly deps: ShellRunnerDeps) {}

  async run(command: string): Promise<void> {
    const { screen, cwd, config } = this.deps;
    const abort = this.deps.abort.begin();
    const live = new LiveTail((text) => screen.store.update({ live: { text, thinking: '', shell: true } }));
    const timer = setInterval(() => live.flush(), this.deps.liveIntervalMs ?? 100);
    screen.store.update({ busy: `running ${oneLine(command, 40)}…`, live: undefined });
    let result: Awaited<ReturnType<typeof runShell>>;
    try {
      result = await runShell(command, {
        cwd,
        timeoutMs: 0,
        signal: abort.signal,
        maxOutputChars: MAX_COMMAND_OUTPUT_CHARS,
        onOutput: (chunk) => live.push(chunk),
      });
    } finally {
      clearInterval(timer);
      this.deps.abort.end();
      screen.store.update({ busy: undefined, live: undefined });
    }
    const end = shellEndOf(result, 0);
    const output = outputForModel(result.output, config.max_output_chars);
    const ok = shellSucceeded(end);
    const short = shellEndShort(end);
    this.deps.conversation.startTurn();
    this.deps.conversation.append({
      role: 'user',
      content: shellContextText({ command, cwd, endNote: shellEndNote(end), output }),
      shell: { command, cwd, end: short, ok },
    });
    screen.push({ kind: 'shell', id: screen.itemId(), command, output, end: short, ok });
    this.deps.onAppended();
  }
}

/**
 * A command's output as the model (and the screen) gets it: control sequences removed, binary
 * output replaced by a note, capped to `maxChars` (head and tail), without trailing blank lines.
 */
export function outputForModel(raw: string, maxChars: number): string {
  if (raw.includes('\0'))
    return `[binary output, ${raw.length.toLocaleString('en-US')} characters, not shown]`;
  return capToolOutput(sanitizeTerminalText(raw).trimEnd(), maxChars);
}

/** The newest part of a command's output, handed on at most once per flush. */
class LiveTail {
  private text = '';
  private changed = false;

  constructor(private readonly show: (text: string) => void) {}

  push(chunk: string): void {
    this.text += chunk;
    if (this.text.length > 2 * LIVE_TAIL_CHARS) this.text = this.text.slice(-LIVE_TAIL_CHARS);
    this.changed = true;
  }

  flush(): void {
    if (!this.changed) return;
    this.changed = false;
    this.show(this.text.slice(-LIVE_TAIL_CHARS));
  }
}

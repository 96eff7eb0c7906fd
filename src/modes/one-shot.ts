import type { DisplayItem } from '../chat/state/display-items.js';
import { endedInError } from '../chat/turn/turn-outcome.js';
import type { RunSettings } from '../cli/settings.js';
import { createStreamSanitizer } from '../text/sanitize.js';
import { toolLine } from '../ui/tool-line.js';
import { createChatController } from './create-controller.js';
import { endOnSignals } from './end-on-signals.js';

/** The most piped input a one-shot reads: a prompt is text, not a stream (`< /dev/zero` never ends). */
export const MAX_PIPED_INPUT_BYTES = 8 * 1024 * 1024;

/**
 * Reads piped standard input whole; empty when stdin is a terminal; undefined when it is over
 * {@link MAX_PIPED_INPUT_BYTES} (reading stops there).
 */
async function readPipedStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of process.stdin) {
    bytes += (chunk as Buffer).length;
    if (bytes > MAX_PIPED_INPUT_BYTES) {
      process.stdin.destroy();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `-p -`: the prompt is standard input alone. */
export const STDIN_PROMPT = '-';

/**
 * The prompt of `-p [prompt]` and of the words after the options (`ochat -p "q"`, `ochat "q" -p`),
 * followed by piped stdin when there is any; `-p -` takes stdin alone.
 */
export function composePrompt(
  flag: string | boolean | undefined,
  words: string | undefined,
  stdin: string,
): string {
  const typed = typeof flag === 'string' && flag !== STDIN_PROMPT ? flag : '';
  const parts = [typed, words ?? '', stdin.trimEnd()].filter((p) => p.trim());
  return parts.join('\n\n');
}

/** What goes to stderr for an item of the conversation; the reply itself goes to stdout. */
function stderrLine(item: DisplayItem): string | undefined {
  if (item.kind === 'notice' && item.level !== 'success')
    return `${item.level === 'info' ? '' : `${item.level}: `}${item.text}`;
  if (item.kind === 'tool') return toolLine(item);
  return undefined;
}

/**
 * One-shot mode (`-p`): sends one prompt, streams the reply to stdout as plain text, and returns
 * the exit code: 0 on success, 1 on any error (shown on stderr), 2 when there is no prompt.
 */
export async function runOneShot(settings: RunSettings): Promise<number> {
  if (settings.flags.print === STDIN_PROMPT && process.stdin.isTTY) {
    process.stderr.write('ochat: -p - reads the prompt from stdin, but stdin is a terminal: pipe text in.\n');
    return 2;
  }
  const stdin = await readPipedStdin();
  if (stdin === undefined) {
    process.stderr.write(
      `ochat: piped input is over ${MAX_PIPED_INPUT_BYTES / 1024 / 1024} MB, the most a one-shot reads; send less (e.g. head -c 1M file | ochat -p "…").\n`,
    );
    return 2;
  }
  const prompt = composePrompt(settings.flags.print, settings.prompt, stdin);
  if (!prompt) {
    process.stderr.write('ochat: -p needs a prompt: ochat -p "question", or pipe text into ochat -p.\n');
    return 2;
  }
  // Killed mid-run (a script's timeout, a CI job cancelled): an approved run_command ends with it.
  endOnSignals();
  let wroteReply = false;
  // Pieces split control sequences; sanitizing each piece alone would leak their tails as text.
  const reply = createStreamSanitizer();
  const controller = await createChatController(settings, {
    onExit: () => {},
    interactive: false,
    autoConfirm: settings.flags.yes ? 'yes' : 'no',
    onReplyDelta: (delta) => {
      if (!delta.content) return;
      wroteReply = true;
      process.stdout.write(reply.push(delta.content));
    },
  });
  let shown = 0;
  controller.store.subscribe(() => {
    const { items } = controller.store.get();
    for (const item of items.slice(shown)) {
      const line = stderrLine(item);
      if (line) process.stderr.write(`${line.startsWith('error: ') ? `ochat: ${line.slice(7)}` : line}\n`);
    }
    shown = items.length;
  });
  const connected = await controller.start();
  // The first request offers the MCP servers' tools: wait for them, up to mcp_start_timeout_s.
  await controller.mcpSettled(settings.config.mcp_start_timeout_s * 1000);
  if (!connected) {
    await controller.shutdown();
    return 1;
  }
  const outcome = await controller.submit(prompt);
  await controller.idle();
  await controller.shutdown();
  if (wroteReply) process.stdout.write(`${reply.end()}\n`);
  // A window asked for and refused was an error too, though the reply came (in the model's own).
  return (outcome && endedInError(outcome)) || connected.refusedNumCtx !== undefined ? 1 : 0;
}

import { fstatSync, readSync } from 'node:fs';
import type { DisplayItem } from '../chat/state/display-items.js';
import { endedInError } from '../chat/turn/turn-outcome.js';
import type { RunSettings } from '../cli/settings.js';
import { isatty } from '../platform/early-terminal.js';
import { createStreamSanitizer } from '../text/sanitize.js';
import { toolLine } from '../ui/tool-line.js';
import { createChatController } from './create-controller.js';
import { endOnSignals } from './end-on-signals.js';

/** The most piped input a one-shot reads: a prompt is text, not a stream (`< /dev/zero` never ends). */
export const MAX_PIPED_INPUT_BYTES = 8 * 1024 * 1024;

/**
 * Reads piped standard input whole; empty when stdin is a terminal; refused, in words, when it is a
 * folder or over {@link MAX_PIPED_INPUT_BYTES} (reading stops there).
 */
async function readPipedStdin(): Promise<string | { refused: string }> {
  // Without process.stdin where it can be: creating it costs ~1.4 ms on a file (an fs.ReadStream).
  if (isatty(0)) return '';
  const kind = stdinKind();
  // `ochat -p "…" < folder`: Node reads nothing from it and says nothing.
  if (kind === 'folder')
    return { refused: 'standard input is a folder, not text; give it a file (< file) or pipe text in.' };
  const over = {
    refused: `piped input is over ${MAX_PIPED_INPUT_BYTES / 1024 / 1024} MB, the most a one-shot reads; send less (e.g. head -c 1M file | ochat -p "…").`,
  };
  const input = { chunks: [] as Buffer[], bytes: 0 };
  const kept = (chunk: Buffer) => {
    input.bytes += chunk.length;
    if (input.bytes > MAX_PIPED_INPUT_BYTES) return false;
    input.chunks.push(chunk);
    return true;
  };
  // A file or a device (`< file`; /dev/null from cron, CI or a parent that ignores stdin) is read
  // at once: nothing else runs yet, and its stream (an fs.ReadStream read through the thread pool
  // and an async iterator) cost every such one-shot CPU before its first byte. A pipe or a socket
  // is a stream: process.stdin makes it non-blocking.
  if (kind === 'file or device') {
    const read = readAtOnce(kept);
    if (read === 'over') return over;
    if (read === 'all') return Buffer.concat(input.chunks).toString('utf8');
  }
  for await (const chunk of process.stdin) {
    if (!kept(chunk as Buffer)) {
      process.stdin.destroy();
      return over;
    }
  }
  return Buffer.concat(input.chunks).toString('utf8');
}

/** What fd 0 is: a regular file or a device, a folder, or a stream (a pipe, a socket, or closed). */
function stdinKind(): 'file or device' | 'folder' | 'stream' {
  try {
    const stat = fstatSync(0);
    if (stat.isDirectory()) return 'folder';
    return stat.isFile() || stat.isCharacterDevice() ? 'file or device' : 'stream';
  } catch {
    return 'stream';
  }
}

/** Reads fd 0 to its end ('all'), or until `keep` refuses a chunk ('over'); 'later' where it would block. */
function readAtOnce(keep: (chunk: Buffer) => boolean): 'all' | 'over' | 'later' {
  for (;;) {
    const chunk = Buffer.allocUnsafe(STDIN_CHUNK_BYTES);
    let read: number;
    try {
      read = readSync(0, chunk, 0, chunk.length, null);
    } catch (error) {
      // A device opened non-blocking: the stream reads the rest when there is some.
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return 'later';
      throw error;
    }
    if (read === 0) return 'all';
    if (!keep(chunk.subarray(0, read))) return 'over';
  }
}

/** How much of a file or device on stdin one read takes. */
const STDIN_CHUNK_BYTES = 64 * 1024;

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
  if (settings.flags.print === STDIN_PROMPT && isatty(0)) {
    process.stderr.write('ochat: -p - reads the prompt from stdin, but stdin is a terminal: pipe text in.\n');
    return 2;
  }
  const stdin = await readPipedStdin();
  if (typeof stdin !== 'string') {
    process.stderr.write(`ochat: ${stdin.refused}\n`);
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

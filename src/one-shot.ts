import type { DisplayItem } from './chat/display-items.js';
import { createChatController } from './create-controller.js';
import type { RunSettings } from './settings.js';
import { createStreamSanitizer } from './text/sanitize.js';

/** Reads piped standard input whole; empty when stdin is a terminal. */
async function readPipedStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The prompt of `-p [prompt]`, followed by piped stdin when there is any. */
export function composePrompt(flag: string | boolean | undefined, stdin: string): string {
  const parts = [typeof flag === 'string' ? flag : '', stdin.trimEnd()].filter((p) => p.trim());
  return parts.join('\n\n');
}

/** What goes to stderr for an item of the conversation; the reply itself goes to stdout. */
function stderrLine(item: DisplayItem): string | undefined {
  if (item.kind === 'notice' && item.level !== 'success')
    return `${item.level === 'info' ? '' : `${item.level}: `}${item.text}`;
  if (item.kind === 'tool')
    return `${item.ok ? '⚙' : '✗'} ${item.name} ${item.keyArgument} — ${item.summary}`;
  return undefined;
}

/**
 * One-shot mode (`-p`): sends one prompt, streams the reply to stdout as plain text, and returns
 * the exit code: 0 on success, 1 on any error (shown on stderr), 2 when there is no prompt.
 */
export async function runOneShot(settings: RunSettings): Promise<number> {
  const prompt = composePrompt(settings.flags.print, await readPipedStdin());
  if (!prompt) {
    process.stderr.write('ochat: -p needs a prompt: ochat -p "question", or pipe text into ochat -p.\n');
    return 2;
  }
  let failed = false;
  let wroteReply = false;
  // Pieces split control sequences; sanitizing each piece alone would leak their tails as text.
  const reply = createStreamSanitizer();
  const controller = createChatController(settings, {
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
      if (item.kind === 'notice' && item.level === 'error') failed = true;
      const line = stderrLine(item);
      if (line) process.stderr.write(`${line.startsWith('error: ') ? `ochat: ${line.slice(7)}` : line}\n`);
    }
    shown = items.length;
  });
  await controller.start();
  if (!controller.numCtx) return 1;
  controller.submit(prompt);
  await controller.idle();
  if (wroteReply) process.stdout.write(`${reply.end()}\n`);
  return failed ? 1 : 0;
}

import type { Message } from '../conversation/message.js';
import { capText, collapseWhitespace } from './text.js';
import { toolEntryLine } from './tool-entries.js';

/** The default summarizer instructions; `compaction.prompt` in the config replaces them wholesale. */
export const DEFAULT_SUMMARIZER_RULES = `You maintain the running summary of a conversation between a user and an AI assistant. The summary replaces the older messages, so anything it leaves out is forgotten for good.

Preserve, exactly as written:
- every fact the user stated: names, numbers, quantities, file paths, URLs, commands, dates, versions, preferences and constraints;
- every commitment the assistant made and every task still in progress;
- decisions taken, and the reasons given for them;
- open questions and unresolved problems.

Rules:
- Fold the existing summary (if any) into the new one: its facts must survive.
- Do not invent anything, do not add advice, opinions or commentary, do not answer questions.
- Write in the language of the conversation itself.
- Use plain prose or short bullet points, in chronological order, with no preamble.
- Tool results appear as a one-line description followed by the start of their output: keep the facts found in that output (values, names, paths, errors) the way you keep facts the user stated.`;

/** A request to the summarizer model. */
export interface SummarizerRequest {
  system: string;
  prompt: string;
}

/**
 * The summarizer's request: the rules as system prompt; the previous narrative first (to be
 * folded in), then the slice's lines, then the one-run focus, then the size limit.
 */
export function buildSummarizerRequest(input: {
  /** `compaction.prompt` from the config: replaces the default rules wholesale. */
  rules?: string;
  previousNarrative?: string;
  /** `/compact <instructions>`: extra focus for this run only. */
  focus?: string;
  lines: readonly string[];
  maxTokens: number;
}): SummarizerRequest {
  const parts: string[] = [];
  if (input.previousNarrative?.trim()) {
    parts.push(
      `Existing summary of the conversation so far (keep every fact in it):\n<summary>\n${input.previousNarrative.trim()}\n</summary>`,
    );
  }
  parts.push(
    `New messages to fold into the summary, one per line as [index] role: text:\n<messages>\n${input.lines.join('\n')}\n</messages>`,
  );
  if (input.focus?.trim()) parts.push(`Focus for this summary, from the user: ${input.focus.trim()}`);
  parts.push(
    `Write the complete updated summary now, at most about ${Math.max(1, Math.floor(input.maxTokens * 0.75))} words. Output only the summary.`,
  );
  return { system: input.rules?.trim() ? input.rules : DEFAULT_SUMMARIZER_RULES, prompt: parts.join('\n\n') };
}

/**
 * The slice as summarizer input, one line per message: `[i] role: text` with `i` the transcript
 * index (`firstIndex` is the slice's start), whitespace collapsed, each message capped at
 * `maxMessageChars` with a marker; tool-call-only assistant messages as `(tool calls: a, b)`;
 * tool results by their one-line summary then the head of their output (capped like any
 * message), so facts that exist only in a tool's output can be summarized; thinking omitted.
 */
export function renderSliceLines(
  slice: readonly Message[],
  options: { maxMessageChars: number; firstIndex?: number },
): string[] {
  const first = options.firstIndex ?? 0;
  return slice.map(
    (message, k) => `[${first + k}] ${message.role}: ${lineText(message, options.maxMessageChars)}`,
  );
}

function lineText(message: Message, maxChars: number): string {
  if (message.role === 'tool') {
    const output = collapseWhitespace(message.content);
    return output
      ? `${toolEntryLine(message)} — output: ${capText(output, maxChars)}`
      : toolEntryLine(message);
  }
  const parts: string[] = [];
  const text = collapseWhitespace(message.content);
  if (text) parts.push(capText(text, maxChars));
  if (message.tool_calls?.length) {
    parts.push(`(tool calls: ${message.tool_calls.map((call) => call.function.name).join(', ')})`);
  }
  const images = message.images?.length ?? 0;
  if (images) parts.push(`(${images} image${images === 1 ? '' : 's'} attached)`);
  if (message.interrupted) parts.push('(reply interrupted)');
  return parts.length ? parts.join(' ') : '(empty)';
}

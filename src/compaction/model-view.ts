import type { CompactionRecord } from '../conversation/compaction-record.js';
import type { Message, WireMessage } from '../conversation/message.js';
import { fitNewestTurn, shortenToolOutput } from './fit-newest-turn.js';
import { renderSummarySection, SECTION_SEPARATOR } from './summary.js';
import { toolEntryLine } from './tool-entries.js';

/** What the model view is built from. */
export interface ModelViewInput {
  system?: string;
  /** The instruction files' section (instructions-section.ts): after the system prompt, never compacted. */
  instructions?: string;
  /** The pinned notes' section (pins.ts): after the instructions, verbatim, never compacted. */
  pins?: string;
  /** The compaction record in force: its summary is folded into the system message. */
  record?: CompactionRecord;
  transcript: readonly Message[];
  /** A tool result's content as sent (the app caps long output here); default: `content`. */
  toolContent?: (message: Message) => string;
  /** Shorten old tool outputs of the newest turn when it alone does not fit (see fit-newest-turn.ts). */
  fit?: ViewFit;
  /**
   * Only `transcript[..end)`, as the chat's request sent it (the summarizer's continuation of that
   * request): the messages after it still decide how those before it are sent.
   */
  end?: number;
  /**
   * Tool outputs a request sent shortened to fit, and the chars of their head it kept: sent so
   * again, never whole (the model never had them whole). With `fit`, the newest turn is fitted afresh.
   */
  shortened?: ReadonlyMap<Message, number>;
}

/** The parts of the system message: the system prompt, the sections every request carries whole, the summary. */
export type SystemSections = Pick<ModelViewInput, 'system' | 'instructions' | 'pins' | 'record'>;

/** The room the newest turn must fit in, and how its tool outputs are shortened when it does not. */
export interface ViewFit {
  /** The window less what every request carries besides its messages (the tool definitions). */
  numCtx: number;
  reserve: number;
  charsPerToken: number;
  headChars?: number;
  /** Told of each tool output shortened to fit, and the chars of its head the model gets. */
  onShortened?: (source: Message, headChars: number) => void;
}

/**
 * What is sent to Ollama: one system message (the system prompt, then the instruction files and
 * the summary as delimited sections), then `transcript[record.upto..]` as wire messages. Never two system
 * messages, never a leading orphan `tool` message, thinking never sent back, replies replaced by
 * `/retry` (a whole turn's assistant and tool messages) never sent.
 */
export function buildModelView(input: ModelViewInput): WireMessage[] {
  const { record, transcript, toolContent } = input;
  const strays: string[] = [];
  const tail: WireMessage[] = [];
  const sources: Message[] = [];
  // Whether the last tail entry carries a `!command` run: user messages next to one join it.
  let lastHasShell = false;
  const end = input.end ?? transcript.length;
  for (let i = record?.upto ?? 0; i < end; i++) {
    const message = transcript[i];
    // A stray system message (hand-edited or old session) joins the one system message.
    if (message.role === 'system') {
      strays.push(message.content);
      continue;
    }
    // `/retry` replaced it: the new reply stands in its place (the history keeps the old one).
    if (message.replaced) continue;
    // Results whose call is not in the view would be orphans every template mishandles.
    if (message.role === 'tool' && tail.length === 0) continue;
    if (isRetriedReply(message, transcript[i + 1])) continue;
    const wire = toWireMessage(message, toolContent);
    const last = tail.length - 1;
    if (message.role === 'user' && tail[last]?.role === 'user' && (lastHasShell || message.shell)) {
      // A `!command`'s output goes with the user's next message: one user message, so the
      // user/assistant alternation every chat template expects holds.
      tail[last] = joinUserMessages(tail[last], wire);
      sources[last] = message;
      lastHasShell = true;
      continue;
    }
    tail.push(wire);
    sources.push(message);
    lastHasShell = message.shell !== undefined;
  }
  const head = systemHead(input, strays);
  // The newest turn (with `fit`) is fitted afresh below: what was sent of it may change as it grows.
  const newest = input.fit ? tail.findLastIndex((m) => m.role === 'user') : tail.length;
  for (let i = 0; i < Math.max(0, newest); i++) {
    const headChars = input.shortened?.get(sources[i]);
    if (headChars === undefined || sources[i].role !== 'tool') continue;
    tail[i] = {
      ...tail[i],
      content: shortenToolOutput(tail[i].content, toolEntryLine(sources[i]), headChars),
    };
  }
  if (!input.fit) return [...head, ...tail];
  const { numCtx, reserve, charsPerToken, headChars, onShortened } = input.fit;
  return [
    ...head,
    ...fitNewestTurn({ head, tail, sources, room: numCtx - reserve, charsPerToken, headChars, onShortened }),
  ];
}

/**
 * The one system message a request starts with: the system prompt, then the instruction files,
 * the pinned notes and the summary of `record` as delimited sections, then `strays` (system
 * messages found in the transcript); none when all are empty. Alone, it is what every request
 * carries at the least.
 */
export function systemHead(sections: SystemSections, strays: readonly string[] = []): WireMessage[] {
  const parts: string[] = [];
  if (sections.system?.trim()) parts.push(sections.system);
  if (sections.instructions) parts.push(sections.instructions);
  if (sections.pins) parts.push(sections.pins);
  if (sections.record) parts.push(renderSummarySection(sections.record));
  for (const stray of strays) if (stray.trim()) parts.push(stray);
  return parts.length ? [{ role: 'system', content: parts.join(SECTION_SEPARATOR) }] : [];
}

/**
 * A reply cut short by a failure that is being, or was, retried: the transcript keeps it, but the
 * model sees the retry's reply instead (a trailing assistant message would be continued, not redone).
 */
export function isRetriedReply(message: Message, next: Message | undefined): boolean {
  return (
    message.role === 'assistant' &&
    message.interrupted === true &&
    !message.tool_calls?.length &&
    (next === undefined || next.role === 'assistant')
  );
}

/** Two user messages as one, in order, separated by a blank line; images of both kept. */
function joinUserMessages(first: WireMessage, second: WireMessage): WireMessage {
  const joined: WireMessage = { role: 'user', content: `${first.content}\n\n${second.content}` };
  const images = [...(first.images ?? []), ...(second.images ?? [])];
  if (images.length) joined.images = images;
  return joined;
}

/**
 * One transcript message as sent: thinking stripped, tool results as `{role:'tool', tool_name,
 * content}` (content via `toolContent` when given), assistant `tool_calls` and user images kept.
 */
export function toWireMessage(message: Message, toolContent?: (message: Message) => string): WireMessage {
  if (message.role === 'tool') {
    const wire: WireMessage = { role: 'tool', content: toolContent ? toolContent(message) : message.content };
    if (message.tool_name !== undefined) wire.tool_name = message.tool_name;
    return wire;
  }
  const wire: WireMessage = { role: message.role, content: message.content };
  if (message.tool_calls?.length) wire.tool_calls = message.tool_calls;
  if (message.images?.length) wire.images = message.images;
  return wire;
}

import type { Message } from '../conversation/message.js';
import { weightedLength } from '../conversation/token-estimate.js';
import { formatBytes } from '../text/format-bytes.js';
import { collapseWhitespace } from '../text/shorten.js';
import { cancellableTurn, type SummarizerCall, type SummaryCut, summarizeLines } from './chunking.js';

/** Tells the summarizer that the lines it is given are the parts of one long message (tests find such requests by it). */
export const IN_PARTS_NOTE = 'in parts; keep every fact in it';

/** A message over `max_message_chars` condensed on its own before the fold. */
export interface CondensedMessage {
  /** Transcript index. */
  index: number;
  /** What it was, for the report: `a 71 kB paste`, `a 20 kB read_file output`. */
  label: string;
  /** Summarizer requests it took (one per part). */
  parts: number;
}

/** A message over `max_message_chars` cut to its head for the summarizer (`compaction.cut_long_messages`). */
export interface CutMessage {
  index: number;
  label: string;
  /** Its chars (whitespace collapsed), and how many of them the summarizer never saw. */
  chars: number;
  unseen: number;
}

/** What happened to the slice's long messages before the fold. */
export interface LongMessages {
  /**
   * What stands for each long message in the summarizer's input: its condensed form, or (when
   * condensing would not shrink it) its whole text, uncapped.
   */
  condensed: Map<Message, string>;
  report: CondensedMessage[];
  cut: CutMessage[];
  /** What was cut from the condensed forms that stayed over budget (summed into the record's cut). */
  summaryCut: SummaryCut | undefined;
}

/**
 * Every part of every message reaches the summarizer: a message (or tool output, as the model was
 * given it) over `maxMessageChars` is first condensed on its own, its lines in chunks that fit the
 * summarizer's window (the map step of chunking.ts), and that condensed form goes into the fold.
 * One no larger than its condensed form may be (`targetTokens`) goes into the fold whole instead:
 * a summarizer call that cannot shrink it would only cost time. With `cutLongMessages`, a long
 * message is cut to its head instead, and each cut is returned.
 */
export async function condenseLongMessages(
  input: SummarizerCall & {
    slice: readonly Message[];
    /** Transcript index of `slice[0]`. */
    firstIndex: number;
    maxMessageChars: number;
    cutLongMessages: boolean;
    toolContent?: (message: Message) => string;
    /** Only these messages of the slice (those sent shortened, for the chat's continued request). */
    only?: ReadonlySet<Message>;
  },
): Promise<LongMessages> {
  const result: LongMessages = { condensed: new Map(), report: [], cut: [], summaryCut: undefined };
  const removed: string[] = [];
  let removedTokens = 0;
  let endsLost = 0;
  for (const [k, message] of input.slice.entries()) {
    if (message.replaced || (input.only && !input.only.has(message))) continue;
    // Collapsing whitespace only shortens: most messages are ruled out without it.
    if (message.content.length <= input.maxMessageChars) continue;
    const text = message.role === 'tool' && input.toolContent ? input.toolContent(message) : message.content;
    // Each pass over a long message takes a while (50 MB: a tenth of a second): keys and signals come in between.
    await cancellableTurn(input.signal);
    const chars = collapseWhitespace(text).length;
    if (chars <= input.maxMessageChars) continue;
    const index = input.firstIndex + k;
    const label = describeLongMessage(message, text);
    if (input.cutLongMessages) {
      result.cut.push({ index, label, chars, unseen: chars - input.maxMessageChars });
      continue;
    }
    if (input.estimate(text) <= input.targetTokens) {
      result.condensed.set(message, text);
      continue;
    }
    await cancellableTurn(input.signal);
    const lines = text
      .split('\n')
      .map(collapseWhitespace)
      .filter((line) => line.length > 0);
    await cancellableTurn(input.signal);
    const summarized = await summarizeLines({
      ...input,
      lines: [`[${index}] ${message.role}: (${label}, ${IN_PARTS_NOTE})`, ...lines],
      previousNarrative: undefined,
    });
    result.condensed.set(message, `(${label}, condensed) ${summarized.narrative}`);
    result.report.push({ index, label, parts: summarized.parts });
    if (summarized.cut) {
      if (summarized.cut.text) removed.push(summarized.cut.text);
      removedTokens += summarized.cut.tokens;
      endsLost += summarized.cut.endsLost ?? 0;
    }
  }
  if (removed.length || endsLost) {
    result.summaryCut = { text: removed.join('\n'), tokens: removedTokens };
    if (endsLost) result.summaryCut.endsLost = endsLost;
  }
  return result;
}

/** `a 71 kB paste`, `a 2.1 kB message`, `a 20 kB read_file output`, `a 3.4 kB reply`. */
function describeLongMessage(message: Message, text: string): string {
  const size = formatBytes(weightedLength(text));
  if (message.role === 'tool') return `a ${size} ${message.tool_name ?? 'tool'} output`;
  if (message.role === 'assistant') return `a ${size} reply`;
  return `a ${size} ${text.includes('\n') ? 'paste' : 'message'}`;
}

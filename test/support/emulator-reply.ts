import { randomInt } from 'node:crypto';
import { countTokens, fillerTokens, splitIntoTokens } from './emulator-tokens.js';
import type { ScriptedReply } from './emulator-types.js';

/** The `message` of one streamed chunk, as Ollama serializes it. */
export interface ChunkMessage {
  role: 'assistant';
  content: string;
  thinking?: string;
  /** Well-formed `WireToolCall`s, or whatever a scripted `rawToolCalls` says. */
  tool_calls?: WireToolCall[] | unknown[];
}

/** A tool call as Ollama sends it: whole, with an id and an object of arguments. */
export interface WireToolCall {
  id: string;
  function: { index: number; name: string; arguments: Record<string, unknown> };
}

/** A reply turned into the chunks that will be sent, and the counts the done line reports. */
export interface ReplyPlan {
  chunks: ChunkMessage[];
  /** Generated tokens: thinking and content pieces, plus the tool calls' JSON. */
  evalCount: number;
  doneReason: 'stop' | 'length';
}

/** What of the request shapes the reply. */
export interface ReplyContext {
  /** Thinking is emitted only for a model with the capability whose request didn't say think:false. */
  emitThinking: boolean;
  /** `options.num_predict`: at most this many tokens are generated, then done_reason 'length'. */
  numPredict?: number;
}

const TOOL_CALL_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `call_` and 8 random lowercase letters or digits, like Ollama's toolCallId(). */
export function toolCallId(): string {
  let id = 'call_';
  for (let i = 0; i < 8; i++) id += TOOL_CALL_ID_ALPHABET[randomInt(TOOL_CALL_ID_ALPHABET.length)];
  return id;
}

/** Plans the chunks of a scripted reply: thinking pieces, then content pieces, then tool calls. */
export function planReply(reply: ScriptedReply, context: ReplyContext): ReplyPlan {
  const limit = context.numPredict !== undefined && context.numPredict > 0 ? context.numPredict : Infinity;
  const thinking = context.emitThinking && reply.thinking ? splitIntoTokens(reply.thinking) : [];
  const content =
    reply.tokens !== undefined
      ? fillerTokens(reply.tokens)
      : splitIntoTokens(reply.content ?? '', reply.pieceChars);
  const cut = thinking.length + content.length > limit;
  const keptThinking = thinking.slice(0, limit);
  const keptContent = content.slice(0, Math.max(0, limit - keptThinking.length));

  const chunks: ChunkMessage[] = [
    ...keptThinking.map((piece): ChunkMessage => ({ role: 'assistant', content: '', thinking: piece })),
    ...keptContent.map((piece): ChunkMessage => ({ role: 'assistant', content: piece })),
  ];
  // Larger pieces still count as the tokens of their text.
  const contentTokens =
    reply.pieceChars === undefined ? keptContent.length : countTokens(keptContent.join(''));
  let evalCount = keptThinking.length + contentTokens;
  if (!cut && reply.toolCalls && reply.toolCalls.length > 0) {
    const calls = reply.toolCalls.map(
      (call, index): WireToolCall => ({
        id: toolCallId(),
        function: { index, name: call.name, arguments: call.arguments },
      }),
    );
    chunks.push({ role: 'assistant', content: '', tool_calls: calls });
    evalCount += countTokens(JSON.stringify(reply.toolCalls));
  }
  if (!cut && reply.rawToolCalls) {
    chunks.push({ role: 'assistant', content: '', tool_calls: reply.rawToolCalls });
    evalCount += countTokens(JSON.stringify(reply.rawToolCalls));
  }
  return { chunks, evalCount, doneReason: reply.doneReason ?? (cut ? 'length' : 'stop') };
}

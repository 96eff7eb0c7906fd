/**
 * An emulated chat model for the probe chat (src/eval/probe-chat.ts): it answers a probe's
 * question from what it is sent and nothing else — the value when it is there, as the scorer
 * reads it, else that it does not know — so `ochat eval compaction`'s answer check can be followed.
 */
import { PROBES, probeInView } from '../../src/eval/probe-chat.js';

/** The reply to one chat request (`body.messages` as sent, Ollama's or OpenAI's). */
export function probeReader(req: { body: { messages: { content?: string }[] } }): { content: string } {
  const messages = req.body.messages;
  const question = String(messages.at(-1)?.content ?? '');
  const probe = PROBES.find((p) => question.startsWith(p.question));
  if (!probe) return { content: 'Okay.' };
  const sent = messages
    .slice(0, -1)
    .map((m) => m.content ?? '')
    .join('\n');
  return { content: probeInView(probe, sent) ? `It is ${probe.value}.` : 'I do not know.' };
}

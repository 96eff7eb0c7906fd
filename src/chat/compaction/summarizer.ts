import { supportsThinking } from '../../backend/capabilities.js';
import type { ChatBackend } from '../../backend/chat-backend.js';
import type { Ask } from '../../compaction/compactor.js';
import type { KeepAlive } from '../../config/keep-alive.js';
import { type ConnectedModel, connectModel } from '../request/model-selection.js';

/** The summarizer model and the window it runs with. */
export interface SummarizerTarget {
  model: string;
  numCtx: number;
  ask: Ask;
}

/**
 * Resolves the summarizer: `compaction.model` or the chat model. With the chat model it sends the
 * chat's own `num_ctx` (a different value would reload the model twice per compaction). Every
 * request carries the chat's `keep_alive` as it is then, and `truncate: false`: an input over the
 * summarizer's window fails the compaction instead of losing the facts it was meant to keep.
 */
export async function resolveSummarizer(
  backend: ChatBackend,
  chat: ConnectedModel,
  configuredModel: string | undefined,
  keepAlive: () => KeepAlive | undefined = () => undefined,
): Promise<SummarizerTarget> {
  const session =
    configuredModel && configuredModel !== chat.name
      ? await connectModel(backend, configuredModel, {})
      : chat;
  const thinks = supportsThinking(session.info);
  return {
    model: session.name,
    numCtx: session.numCtx,
    ask: async ({ system, prompt, numPredict, signal }) => {
      const reply = await backend.chat(
        {
          model: session.name,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: prompt },
          ],
          options: { num_ctx: session.numCtx, num_predict: numPredict },
          // Thinking would spend the summary's token budget on reasoning nobody reads.
          ...(thinks ? { think: false } : {}),
          ...(keepAlive() !== undefined ? { keep_alive: keepAlive() } : {}),
          truncate: false,
        },
        { signal },
      );
      return { text: reply.content, cutOff: reply.doneReason === 'length' };
    },
  };
}

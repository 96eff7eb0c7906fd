import { supportsThinking } from '../../backend/capabilities.js';
import type { ChatBackend } from '../../backend/chat-backend.js';
import type { ChatRequest } from '../../backend/interfaces.js';
import type { Ask } from '../../compaction/compactor.js';
import type { KeepAlive } from '../../config/keep-alive.js';
import { type ConnectedModel, connectModel } from '../request/model-selection.js';
import type { ChatRequestFrame } from '../request/request-builder.js';

/** The summarizer model and the window it runs with. */
export interface SummarizerTarget {
  model: string;
  numCtx: number;
  ask: Ask;
  /** It is the chat model and may continue the chat's own request (`Ask`'s `continues`). */
  continuesChat: boolean;
}

/**
 * Resolves the summarizer: `compaction.model` or the chat model. With the chat model it sends the
 * chat's own `num_ctx` (a different value would reload the model twice per compaction). Every
 * request carries the chat's `keep_alive` as it is then, and `truncate: false`: an input over the
 * summarizer's window fails the compaction instead of losing the facts it was meant to keep.
 * Given `chatFrame` (`compaction.reuse_cache: auto`), a summarizer that is the chat model can
 * continue the chat's request: the same tools and options, `tool_choice: none`; a reply with tool
 * calls (Ollama cannot forbid them) is returned as `calledTools`.
 */
export async function resolveSummarizer(
  backend: ChatBackend,
  chat: ConnectedModel,
  configuredModel: string | undefined,
  keepAlive: () => KeepAlive | undefined = () => undefined,
  chatFrame?: () => ChatRequestFrame,
): Promise<SummarizerTarget> {
  const session =
    configuredModel && configuredModel !== chat.name
      ? await connectModel(backend, configuredModel, {})
      : chat;
  const thinks = supportsThinking(session.info);
  const continuesChat = session === chat && chatFrame !== undefined;
  return {
    model: session.name,
    numCtx: session.numCtx,
    continuesChat,
    ask: async ({ system, prompt, numPredict, signal, continues }) => {
      if (continues && !continuesChat) throw new Error(`${session.name} cannot continue the chat's request`);
      const frame = continues ? chatFrame?.() : undefined;
      const request: ChatRequest = frame
        ? {
            model: session.name,
            messages: [...(continues ?? []), { role: 'user', content: prompt }],
            options: { ...frame.options, num_ctx: session.numCtx, num_predict: numPredict },
            ...(frame.tools.length ? { tools: frame.tools, tool_choice: 'none' as const } : {}),
          }
        : {
            model: session.name,
            messages: [
              { role: 'system', content: system },
              { role: 'user', content: prompt },
            ],
            options: { num_ctx: session.numCtx, num_predict: numPredict },
          };
      const reply = await backend.chat(
        {
          ...request,
          // Thinking would spend the summary's token budget on reasoning nobody reads.
          ...(thinks ? { think: false } : {}),
          ...(keepAlive() !== undefined ? { keep_alive: keepAlive() } : {}),
          truncate: false,
        },
        { signal },
      );
      return {
        text: reply.content,
        cutOff: reply.doneReason === 'length',
        ...(reply.toolCalls.length ? { calledTools: true } : {}),
      };
    },
  };
}

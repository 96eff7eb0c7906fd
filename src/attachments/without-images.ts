import type { WireMessage } from '../conversation/message.js';

/**
 * The view for a model that cannot see: each message's images left out and said in their place.
 * Sent as they are, Ollama (≥ 0.30) would refuse every request of the chat from then on, and
 * older servers dropped them unseen; a chat that switched away from a vision model must go on.
 */
export function withoutImages(view: readonly WireMessage[]): WireMessage[] {
  return view.map((message) => {
    const count = message.images?.length ?? 0;
    if (count === 0) return message;
    const { images: _left, ...rest } = message;
    const note = `[${count === 1 ? 'an image' : `${count} images`} left out here: this model cannot see images]`;
    return { ...rest, content: message.content ? `${message.content}\n\n${note}` : note };
  });
}

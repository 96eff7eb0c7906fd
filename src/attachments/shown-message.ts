import type { Attachment, Message } from '../conversation/message.js';

/** A user message as the screen shows it: what was typed, and the files it attached. */
export interface ShownMessage {
  text: string;
  attachments: Attachment[];
}

/**
 * What to show of a message instead of `content`, which carries its attached files whole: the typed
 * text and one entry per file. A message without attachments (or from a hand-edited session file
 * whose fields are broken) is shown as its content.
 */
export function shownMessage(message: Message): ShownMessage {
  const attachments = Array.isArray(message.attachments)
    ? message.attachments.filter((a) => typeof a?.path === 'string' && typeof a.size === 'number')
    : [];
  if (typeof message.typed !== 'string' || attachments.length === 0) {
    return { text: message.content, attachments: [] };
  }
  return { text: message.typed, attachments };
}

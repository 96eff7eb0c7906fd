import type { Attachment } from '../conversation/message.js';
import type { AttachmentRead } from './read-attachment.js';

/** A file read for attaching. */
export type AttachedFile = Extract<AttachmentRead, { kind: 'text' | 'image' }>;

/** The user message that carries the files: as sent, and what the screen shows of it. */
export interface AttachedMessage {
  /** The typed text, then each text file in a fenced block headed by its path. */
  content: string;
  /** The images, base64, as /api/chat takes them. */
  images: string[];
  attachments: Attachment[];
}

/** A fence longer than any run of backticks in `text`, so the file cannot close it early. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** One text file as the model reads it: its path, then its content in a fenced block. */
function textBlock(file: Extract<AttachedFile, { kind: 'text' }>): string {
  const fence = fenceFor(file.text);
  const body = file.text.endsWith('\n') || file.text === '' ? file.text : `${file.text}\n`;
  const block = `${file.path}\n${fence}\n${body}${fence}`;
  if (file.attachedBytes >= file.size) return block;
  return `${block}\n[${file.path} is ${file.size.toLocaleString('en-US')} bytes; only its first ${file.attachedBytes.toLocaleString('en-US')} are above.]`;
}

/**
 * The message for `typed` with `files` attached: the text as typed (its `@path`s included, so the
 * model sees what was referred to), each text file after it in a fenced block headed by its path,
 * the images apart. The same convention every time, so the model learns where a file starts.
 */
export function composeAttachedMessage(typed: string, files: readonly AttachedFile[]): AttachedMessage {
  const blocks = files.flatMap((file) => (file.kind === 'text' ? [textBlock(file)] : []));
  const images = files.flatMap((file) => (file.kind === 'image' ? [file.base64] : []));
  const attachments = files.map((file): Attachment => {
    const note: Attachment = { path: file.path, kind: file.kind, size: file.size };
    if (file.kind === 'text' && file.attachedBytes < file.size) note.attachedBytes = file.attachedBytes;
    return note;
  });
  return { content: [typed, ...blocks].join('\n\n'), images, attachments };
}

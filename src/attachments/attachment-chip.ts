import type { Attachment } from '../conversation/message.js';
import { formatBytes } from '../text/format-bytes.js';

/** How an attached file is shown in place of its content: `📎 notes.md (2.1 kB)`. */
export function attachmentChip(attachment: Attachment): string {
  const { path, size, kind, attachedBytes } = attachment;
  if (kind === 'image') return `📎 ${path} (image, ${formatBytes(size)})`;
  if (attachedBytes !== undefined && attachedBytes < size) {
    return `📎 ${path} (first ${formatBytes(attachedBytes)} of ${formatBytes(size)})`;
  }
  return `📎 ${path} (${formatBytes(size)})`;
}

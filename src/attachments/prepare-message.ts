import { supportsVision } from '../backend/capabilities.js';
import type { NewMessage } from '../conversation/conversation.js';
import type { SandboxScope } from '../files/sandbox.js';
import { formatBytes } from '../text/format-bytes.js';
import { type AttachedFile, composeAttachedMessage } from './attached-message.js';
import { findAttachmentRefs, looksLikePath } from './attachment-refs.js';
import { nearestAttachmentPath } from './path-completion.js';
import { type AttachmentLimits, readAttachment } from './read-attachment.js';

/** What attaching needs to know: where files may come from, how much, and who will read them. */
export interface AttachContext extends SandboxScope {
  limits: AttachmentLimits;
  /** The model the message goes to: only a `vision` model is sent images. */
  model: { name: string; capabilities: string[] };
}

/** The user message ready to append, with warnings to show; or why it must not be sent. */
export type PreparedMessage =
  | {
      ok: true;
      message: Pick<NewMessage, 'content' | 'images' | 'typed' | 'attachments'>;
      warnings: string[];
    }
  | { ok: false; errors: string[] };

/**
 * The user message for `text`: each `@path` it names is read and attached (see
 * attached-message.ts for how). A file that cannot be attached — outside the sandbox, binary, an
 * image for a model that cannot see, a missing path — stops the whole message, each reason said:
 * a message sent without the file the user meant would be answered wrongly without a word.
 * A bare `@word` that names no file stays text; text over the cap is cut with a warning.
 */
export async function prepareUserMessage(text: string, ctx: AttachContext): Promise<PreparedMessage> {
  const paths = [...new Set(findAttachmentRefs(text).map((ref) => ref.path))];
  if (paths.length === 0) return { ok: true, message: { content: text }, warnings: [] };
  const reads = await Promise.all(paths.map((path) => readAttachment(path, ctx, ctx.limits)));
  const files: AttachedFile[] = [];
  const errors: string[] = [];
  const warnings: string[] = [];
  const vision = supportsVision(ctx.model);
  for (const read of reads) {
    if (read.kind === 'missing') {
      if (looksLikePath(read.path)) {
        const near = nearestAttachmentPath(read.path, ctx);
        errors.push(`No file ${read.path} in ${ctx.cwd}.${near ? ` Did you mean @${near}?` : ''}`);
      }
    } else if (read.kind === 'refused') errors.push(read.reason);
    else if (read.kind === 'image' && !vision) {
      errors.push(
        `${ctx.model.name} cannot see images (its capabilities: ${ctx.model.capabilities.join(', ') || 'none listed'}); ${read.path} was not sent. Switch to a vision model with /model, or leave @${read.path} out.`,
      );
    } else {
      files.push(read);
      if (read.kind === 'text' && read.attachedBytes < read.size) {
        warnings.push(
          `${read.path} is ${formatBytes(read.size)}: only its first ${formatBytes(read.attachedBytes)} is attached (attachments.max_file_bytes).`,
        );
      }
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  if (files.length === 0) return { ok: true, message: { content: text }, warnings };
  const attached = composeAttachedMessage(text, files);
  const message: Pick<NewMessage, 'content' | 'images' | 'typed' | 'attachments'> = {
    content: attached.content,
    typed: text,
    attachments: attached.attachments,
  };
  if (attached.images.length > 0) message.images = attached.images;
  return { ok: true, message, warnings };
}

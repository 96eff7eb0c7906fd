import { looksBinary } from '../files/binary-content.js';
import { readRegularFile, readRegularFileHead } from '../files/regular-file.js';
import { resolveSandboxedPath, type SandboxScope } from '../files/sandbox.js';
import { errnoCode } from '../platform/errno.js';
import { describeError } from '../text/describe-error.js';
import { formatBytes } from '../text/format-bytes.js';
import { detectImageFormat, type ImageFormat, namedLikeImage } from './image-type.js';

/** How much of a file may be attached. */
export interface AttachmentLimits {
  /** Text beyond this many bytes is cut (at a line end where there is one) and the cut said. */
  maxTextBytes: number;
  /** A larger image is refused: an image cannot be cut. */
  maxImageBytes: number;
}

/** Bytes inspected to tell text from binary (git's heuristic reads as many). */
const SNIFF_BYTES = 8000;

/** A file read for attaching, or why it was not. */
export type AttachmentRead =
  /** `attachedBytes` < `size` when the file was over the cap and only its head is attached. */
  | { kind: 'text'; path: string; text: string; size: number; attachedBytes: number }
  | { kind: 'image'; path: string; format: ImageFormat; base64: string; size: number }
  /** No such file (a bare word like `@john` is then left as text). */
  | { kind: 'missing'; path: string }
  | { kind: 'refused'; path: string; reason: string };

/**
 * Reads the file `@path` names, confined like the file tools (working directory and
 * `tools.allowed_paths`): a PNG/JPEG/WebP image (by its bytes) whole, text up to the cap;
 * binaries, directories, devices and paths outside are refused with a reason to show.
 */
export async function readAttachment(
  path: string,
  ctx: SandboxScope,
  limits: AttachmentLimits,
): Promise<AttachmentRead> {
  const resolved = resolveSandboxedPath(path, ctx);
  if (!resolved.ok) return { kind: 'refused', path, reason: resolved.error };
  try {
    const head = await readRegularFileHead(resolved.path, Math.max(limits.maxTextBytes, SNIFF_BYTES));
    if (head.kind === 'not-regular') {
      const reason =
        head.what === 'a directory'
          ? `${path} is a directory; attach the files in it one by one (Tab after @ lists them).`
          : `${path} is ${head.what}, not a regular file; only files can be attached.`;
      return { kind: 'refused', path, reason };
    }
    const format = detectImageFormat(head.content);
    if (format) return await readImage(path, resolved.path, format, head.size, limits);
    if (namedLikeImage(path)) {
      return {
        kind: 'refused',
        path,
        reason: `${path} is not a PNG, JPEG or WebP image by its content; only those images can be attached.`,
      };
    }
    if (looksBinary(head.content)) {
      return {
        kind: 'refused',
        path,
        reason: `${path} is a binary file; only text files and PNG, JPEG or WebP images can be attached.`,
      };
    }
    const kept = head.size > limits.maxTextBytes ? cutText(head.content, limits.maxTextBytes) : head.content;
    return { kind: 'text', path, text: kept.toString('utf8'), size: head.size, attachedBytes: kept.length };
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing', path };
    return { kind: 'refused', path, reason: `Cannot read ${path}: ${describeError(error)}` };
  }
}

async function readImage(
  path: string,
  resolved: string,
  format: ImageFormat,
  size: number,
  limits: AttachmentLimits,
): Promise<AttachmentRead> {
  const tooLarge = {
    kind: 'refused' as const,
    path,
    reason: `${path} is a ${formatBytes(size)} image; images up to ${formatBytes(limits.maxImageBytes)} can be attached.`,
  };
  if (size > limits.maxImageBytes) return tooLarge;
  const read = await readRegularFile(resolved, limits.maxImageBytes);
  if (read.kind === 'too-large') return tooLarge;
  if (read.kind === 'not-regular') {
    return { kind: 'refused', path, reason: `${path} is ${read.what}, not a regular file.` };
  }
  return { kind: 'image', path, format, base64: read.content.toString('base64'), size: read.content.length };
}

/**
 * The first `max` bytes of text, ending at the last line break in them when there is one in the
 * second half (whole lines read better), else at a character boundary (never half a UTF-8 char).
 */
export function cutText(content: Buffer, max: number): Buffer {
  const head = content.subarray(0, max);
  const lastBreak = head.lastIndexOf(0x0a);
  if (lastBreak >= max / 2) return head.subarray(0, lastBreak + 1);
  let end = head.length;
  // Step back over continuation bytes (10xxxxxx) to the start of the char the cut falls in.
  while (end > 0 && end < content.length && (content[end] & 0xc0) === 0x80) end--;
  return head.subarray(0, end);
}

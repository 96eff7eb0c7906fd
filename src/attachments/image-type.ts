/** The image formats Ollama's vision models take. */
export type ImageFormat = 'png' | 'jpeg' | 'webp';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);
}

function ascii(text: string): number[] {
  return [...text].map((char) => char.charCodeAt(0));
}

/**
 * The image format of `bytes` by their magic bytes (never the file name: a `.png` that is text is
 * not an image, a JPEG named `photo` is one), or undefined.
 */
export function detectImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  return undefined;
}

/** File name endings that promise an image, so a file that is not one is refused with that said. */
const IMAGE_EXTENSIONS = /\.(png|jpe?g|webp|gif|bmp|tiff?|heic|avif)$/i;

/** Whether a file's name says it is an image (of any format). */
export function namedLikeImage(path: string): boolean {
  return IMAGE_EXTENSIONS.test(path);
}

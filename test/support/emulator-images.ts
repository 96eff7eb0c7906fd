/**
 * Images on chat messages as Ollama takes them: `images` is `[]api.ImageData` (`[]byte`), so Go's
 * JSON decoder reads each entry as standard base64 and refuses the request (HTTP 400) with the
 * decoder's own error when one is not; and a model without a vision projector is refused by its
 * runner (llama-server, Ollama ≥ 0.30) with the runner's error body passed through as the message.
 */

/** Tokens one image costs in the prompt of a vision model: Ollama's own figure (server/prompt.go). */
export const IMAGE_TOKENS = 768;

/**
 * Ollama's answer (HTTP 400) when a model without `vision` is sent images: llama-server's error
 * body, which Ollama passes on as the message text, JSON and all.
 */
export const NO_VISION_ERROR =
  '{"error":{"code":400,"message":"Multimodal data provided, but model does not support multimodal requests.","type":"invalid_request_error"}}';

const BASE64_ALPHABET = /[A-Za-z0-9+/]/;
const NEWLINE = new Set([0x0a, 0x0d]);
const PAD = 0x3d; // '='

function isAlphabet(byte: number): boolean {
  return byte < 0x80 && BASE64_ALPHABET.test(String.fromCharCode(byte));
}

/**
 * Where Go's `base64.StdEncoding.Decode` stops with `CorruptInputError` on `text` (a byte offset
 * into its UTF-8), or undefined when it decodes: padding required, `\r` and `\n` skipped anywhere,
 * nothing after the padding. A transcription of encoding/base64's decodeQuantum, quantum by quantum.
 */
export function base64ErrorOffset(text: string): number | undefined {
  const src = Buffer.from(text, 'utf8');
  let si = 0;
  while (si < src.length) {
    for (let j = 0; j < 4; j++) {
      if (si === src.length) return j === 0 ? undefined : si - j;
      const byte = src[si++];
      if (isAlphabet(byte)) continue;
      if (NEWLINE.has(byte)) {
        j--;
        continue;
      }
      if (byte !== PAD || j < 2) return si - 1;
      if (j === 2) {
        // "==" is expected; the first "=" is consumed.
        while (si < src.length && NEWLINE.has(src[si])) si++;
        if (si === src.length) return src.length;
        if (src[si] !== PAD) return si - 1;
        si++;
      }
      while (si < src.length && NEWLINE.has(src[si])) si++;
      return si < src.length ? si : undefined;
    }
  }
  return undefined;
}

/** Go's wording for a string that is not base64: `illegal base64 data at input byte 4`. */
export function base64Error(text: string): string | undefined {
  const offset = base64ErrorOffset(text);
  return offset === undefined ? undefined : `illegal base64 data at input byte ${offset}`;
}

/** How many images the messages carry (what the runner would be handed). */
export function countImages(messages: readonly Record<string, unknown>[]): number {
  return messages.reduce((n, m) => n + (Array.isArray(m.images) ? m.images.length : 0), 0);
}

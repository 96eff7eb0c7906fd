import { describe, expect, it } from 'vitest';
import { detectImageFormat, namedLikeImage } from '../../src/attachments/image-type.js';
import { JPEG_BYTES, PNG_BYTES, WEBP_BYTES } from './fixtures.js';

describe('detectImageFormat', () => {
  it('knows PNG, JPEG and WebP by their magic bytes', () => {
    expect(detectImageFormat(PNG_BYTES)).toBe('png');
    expect(detectImageFormat(JPEG_BYTES)).toBe('jpeg');
    expect(detectImageFormat(WEBP_BYTES)).toBe('webp');
  });

  it('does not take text, a truncated signature, another RIFF file or a GIF for an image', () => {
    expect(detectImageFormat(Buffer.from('\x89PNG but text'))).toBeUndefined();
    expect(detectImageFormat(PNG_BYTES.subarray(0, 7))).toBeUndefined();
    expect(detectImageFormat(Buffer.from('RIFF\x00\x00\x00\x00WAVEfmt '))).toBeUndefined();
    expect(detectImageFormat(Buffer.from('GIF89a\x01\x00\x01\x00'))).toBeUndefined();
    expect(detectImageFormat(new Uint8Array())).toBeUndefined();
  });
});

describe('namedLikeImage', () => {
  it('reads image endings case-insensitively, and nothing else', () => {
    expect(['a.png', 'B.JPG', 'c.jpeg', 'd.webp', 'e.gif'].every(namedLikeImage)).toBe(true);
    expect(['a.txt', 'png', 'a.png.txt', 'notes.md'].some(namedLikeImage)).toBe(false);
  });
});

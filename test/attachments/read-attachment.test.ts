import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cutText, readAttachment } from '../../src/attachments/read-attachment.js';
import { makeContext, makeFifo, makeTempDir, writeTree } from '../tools/temp-sandbox.js';
import { JPEG_BYTES, PNG_BYTES, WEBP_BYTES } from './fixtures.js';

const limits = { maxTextBytes: 1000, maxImageBytes: 10_000 };

describe('readAttachment', () => {
  it('reads a text file whole when it is under the cap', async () => {
    const dir = makeTempDir();
    writeTree(dir, { 'notes.md': '# Notes\nbuy milk\n' });
    expect(await readAttachment('notes.md', makeContext(dir), limits)).toEqual({
      kind: 'text',
      path: 'notes.md',
      text: '# Notes\nbuy milk\n',
      size: 17,
      attachedBytes: 17,
    });
  });

  it('cuts text over the cap at a line end and tells the whole size', async () => {
    const dir = makeTempDir();
    writeTree(dir, { 'big.log': 'line of text\n'.repeat(200) });
    const read = await readAttachment('big.log', makeContext(dir), limits);
    expect(read).toMatchObject({ kind: 'text', size: 2600, attachedBytes: 988 });
    expect(read.kind === 'text' && read.text.endsWith('line of text\n')).toBe(true);
  });

  it('reads PNG, JPEG and WebP images whole as base64, by their bytes whatever their name', async () => {
    const dir = makeTempDir();
    writeTree(dir, { 'a.png': PNG_BYTES, 'b.jpg': JPEG_BYTES, 'c.webp': WEBP_BYTES, photo: PNG_BYTES });
    const ctx = makeContext(dir);
    expect(await readAttachment('a.png', ctx, limits)).toEqual({
      kind: 'image',
      path: 'a.png',
      format: 'png',
      base64: PNG_BYTES.toString('base64'),
      size: PNG_BYTES.length,
    });
    expect(await readAttachment('b.jpg', ctx, limits)).toMatchObject({ kind: 'image', format: 'jpeg' });
    expect(await readAttachment('c.webp', ctx, limits)).toMatchObject({ kind: 'image', format: 'webp' });
    expect(await readAttachment('photo', ctx, limits)).toMatchObject({ kind: 'image', format: 'png' });
  });

  it('refuses an image over its cap, a file named like an image that is not one, and binaries', async () => {
    const dir = makeTempDir();
    writeTree(dir, {
      'huge.png': Buffer.concat([PNG_BYTES, Buffer.alloc(20_000)]),
      'fake.png': 'just text',
      'app.bin': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01]),
    });
    const ctx = makeContext(dir);
    expect(await readAttachment('huge.png', ctx, limits)).toEqual({
      kind: 'refused',
      path: 'huge.png',
      reason: 'huge.png is a 20 kB image; images up to 10 kB can be attached.',
    });
    expect(await readAttachment('fake.png', ctx, limits)).toEqual({
      kind: 'refused',
      path: 'fake.png',
      reason: 'fake.png is not a PNG, JPEG or WebP image by its content; only those images can be attached.',
    });
    expect(await readAttachment('app.bin', ctx, limits)).toEqual({
      kind: 'refused',
      path: 'app.bin',
      reason: 'app.bin is a binary file; only text files and PNG, JPEG or WebP images can be attached.',
    });
  });

  it('is confined like the file tools: outside paths and escaping symlinks are refused', async () => {
    const outside = makeTempDir();
    writeTree(outside, { 'secret.txt': 'no' });
    const dir = makeTempDir();
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'link.txt'));
    const ctx = makeContext(dir);
    const escaping = await readAttachment('../x/secret.txt', ctx, limits);
    expect(escaping).toMatchObject({ kind: 'refused' });
    expect(escaping.kind === 'refused' && escaping.reason).toMatch(
      /^Access denied: "..\/x\/secret.txt" is outside/,
    );
    expect(await readAttachment(path.join(outside, 'secret.txt'), ctx, limits)).toMatchObject({
      kind: 'refused',
    });
    const linked = await readAttachment('link.txt', ctx, limits);
    expect(linked.kind === 'refused' && linked.reason).toMatch(/symbolic link/);
    // allowed_paths widen it, as for the tools.
    expect(
      await readAttachment(
        path.join(outside, 'secret.txt'),
        makeContext(dir, { allowedPaths: [outside] }),
        limits,
      ),
    ).toMatchObject({ kind: 'text', text: 'no' });
  });

  it('says a path is missing, and refuses a directory or a FIFO without blocking', async () => {
    const dir = makeTempDir();
    writeTree(dir, { 'src/a.ts': '' });
    makeFifo(dir);
    const ctx = makeContext(dir);
    expect(await readAttachment('nope.md', ctx, limits)).toEqual({ kind: 'missing', path: 'nope.md' });
    expect(await readAttachment('src/a.ts/x', ctx, limits)).toEqual({ kind: 'missing', path: 'src/a.ts/x' });
    const directory = await readAttachment('src', ctx, limits);
    expect(directory.kind === 'refused' && directory.reason).toMatch(/^src is a directory/);
    const fifo = await readAttachment('pipe', ctx, limits);
    expect(fifo.kind === 'refused' && fifo.reason).toMatch(/named pipe/);
  });
});

describe('cutText', () => {
  it('never cuts a UTF-8 character in half when there is no line end to cut at', () => {
    const text = Buffer.from('é'.repeat(10)); // 2 bytes each
    expect(cutText(text, 5).toString('utf8')).toBe('éé');
    expect(cutText(text, 6).toString('utf8')).toBe('ééé');
  });

  it('cuts at the last line end in the second half of the cap, else at the cap', () => {
    expect(cutText(Buffer.from('abcdefgh\nij'), 10).toString()).toBe('abcdefgh\n');
    expect(cutText(Buffer.from('a\nbcdefghij'), 8).toString()).toBe('a\nbcdefg');
  });
});

import { describe, expect, it } from 'vitest';
import { type AttachContext, prepareUserMessage } from '../../src/attachments/prepare-message.js';
import { makeTempDir, writeTree } from '../tools/temp-sandbox.js';
import { PNG_BYTES } from './fixtures.js';

function context(cwd: string, capabilities = ['completion']): AttachContext {
  return {
    cwd,
    allowedPaths: [],
    limits: { maxTextBytes: 50, maxImageBytes: 10_000 },
    model: { name: 'llama3.2', capabilities },
  };
}

describe('prepareUserMessage', () => {
  it('sends text without @paths unchanged, with nothing else attached', async () => {
    expect(await prepareUserMessage('hello there', context(makeTempDir()))).toEqual({
      ok: true,
      message: { content: 'hello there' },
      warnings: [],
    });
  });

  it('attaches each named file once, keeping what was typed for the screen', async () => {
    const dir = makeTempDir();
    writeTree(dir, { 'a.txt': 'alpha\n' });
    const prepared = await prepareUserMessage('@a.txt vs @a.txt', context(dir));
    expect(prepared).toEqual({
      ok: true,
      message: {
        content: '@a.txt vs @a.txt\n\na.txt\n```\nalpha\n```',
        typed: '@a.txt vs @a.txt',
        attachments: [{ path: 'a.txt', kind: 'text', size: 6 }],
      },
      warnings: [],
    });
  });

  it('leaves a bare @word that names no file as text, but refuses a missing path', async () => {
    const dir = makeTempDir();
    for (const text of ['ask @john', 'npm i @types/node', "@app.route('/') in Flask"]) {
      expect(await prepareUserMessage(text, context(dir))).toEqual({
        ok: true,
        message: { content: text },
        warnings: [],
      });
    }
    expect(await prepareUserMessage('read @notse.md', context(dir))).toEqual({
      ok: false,
      errors: [`No file notse.md in ${dir}.`],
    });
  });

  it('warns when a text file is cut to the cap', async () => {
    const dir = makeTempDir();
    writeTree(dir, { 'big.txt': 'abcdefghi\n'.repeat(10) });
    const prepared = await prepareUserMessage('@big.txt', context(dir));
    expect(prepared).toMatchObject({
      ok: true,
      warnings: ['big.txt is 100 B: only its first 50 B is attached (attachments.max_file_bytes).'],
    });
  });

  it('sends an image to a vision model, and refuses it, with the reason, to any other', async () => {
    const dir = makeTempDir();
    writeTree(dir, { 'p.png': PNG_BYTES });
    expect(await prepareUserMessage('what is @p.png', context(dir, ['completion', 'vision']))).toEqual({
      ok: true,
      message: {
        content: 'what is @p.png',
        typed: 'what is @p.png',
        images: [PNG_BYTES.toString('base64')],
        attachments: [{ path: 'p.png', kind: 'image', size: PNG_BYTES.length }],
      },
      warnings: [],
    });
    expect(await prepareUserMessage('what is @p.png', context(dir, ['completion', 'tools']))).toEqual({
      ok: false,
      errors: [
        'llama3.2 cannot see images (its capabilities: completion, tools); p.png was not sent. Switch to a vision model with /model, or leave @p.png out.',
      ],
    });
  });

  it('stops the whole message and gives every reason when several files cannot go', async () => {
    const dir = makeTempDir();
    writeTree(dir, { 'ok.txt': 'fine', 'x.bin': Buffer.from([0, 1, 2]) });
    const prepared = await prepareUserMessage('@ok.txt @x.bin @../out.txt', context(dir));
    expect(prepared.ok).toBe(false);
    expect(!prepared.ok && prepared.errors).toEqual([
      'x.bin is a binary file; only text files and PNG, JPEG or WebP images can be attached.',
      expect.stringMatching(/^Access denied: "..\/out.txt" is outside the working directory/),
    ]);
  });
});

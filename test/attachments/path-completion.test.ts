import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { completeAttachmentPath } from '../../src/attachments/path-completion.js';
import { makeContext, makeTempDir, writeTree } from '../tools/temp-sandbox.js';

describe('completeAttachmentPath', () => {
  it('lists the entries under the typed directory starting with the typed name, directories with /', () => {
    const dir = makeTempDir();
    writeTree(dir, {
      'notes.md': 'abc',
      'Notebook.txt': '',
      'src/app.ts': 'x'.repeat(2100),
      'src/api/x': '',
    });
    const ctx = makeContext(dir);
    expect(completeAttachmentPath('no', ctx)).toEqual([
      { value: 'Notebook.txt', summary: '0 B' },
      { value: 'notes.md', summary: '3 B' },
    ]);
    expect(completeAttachmentPath('src/', ctx)).toEqual([
      { value: 'src/api/', summary: 'directory' },
      { value: 'src/app.ts', summary: '2.1 kB' },
    ]);
    expect(completeAttachmentPath('', ctx).map((e) => e.value)).toEqual(['Notebook.txt', 'notes.md', 'src/']);
  });

  it('shows dot files only when asked for, and leaves out names with spaces', () => {
    const dir = makeTempDir();
    writeTree(dir, { '.env': '', 'my notes.md': '', 'a.md': '' });
    const ctx = makeContext(dir);
    expect(completeAttachmentPath('', ctx).map((e) => e.value)).toEqual(['a.md']);
    expect(completeAttachmentPath('.', ctx).map((e) => e.value)).toEqual(['.env']);
  });

  it('lists nothing outside the sandbox, nor for a directory that does not exist', () => {
    const outside = makeTempDir();
    writeTree(outside, { 'secret.txt': '' });
    const dir = makeTempDir();
    fs.symlinkSync(outside, path.join(dir, 'link'));
    const ctx = makeContext(dir);
    expect(completeAttachmentPath(`${outside}/`, ctx)).toEqual([]);
    expect(completeAttachmentPath('../', ctx)).toEqual([]);
    expect(completeAttachmentPath('link/', ctx)).toEqual([]);
    expect(completeAttachmentPath('nope/', ctx)).toEqual([]);
    expect(completeAttachmentPath(`${outside}/`, makeContext(dir, { allowedPaths: [outside] }))).toEqual([
      { value: `${outside}/secret.txt`, summary: '0 B' },
    ]);
  });
});

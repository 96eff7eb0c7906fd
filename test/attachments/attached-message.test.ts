import { describe, expect, it } from 'vitest';
import { composeAttachedMessage } from '../../src/attachments/attached-message.js';

describe('composeAttachedMessage', () => {
  it('puts each text file after the typed text, in a fence headed by its path; images apart', () => {
    const message = composeAttachedMessage('compare @a.md with @b.py, see @p.png', [
      { kind: 'text', path: 'a.md', text: '# A\n', size: 4, attachedBytes: 4 },
      { kind: 'text', path: 'b.py', text: 'print(1)', size: 8, attachedBytes: 8 },
      { kind: 'image', path: 'p.png', format: 'png', base64: 'iVBO', size: 3 },
    ]);
    expect(message.content).toBe(
      'compare @a.md with @b.py, see @p.png\n\na.md\n```\n# A\n```\n\nb.py\n```\nprint(1)\n```',
    );
    expect(message.images).toEqual(['iVBO']);
    expect(message.attachments).toEqual([
      { path: 'a.md', kind: 'text', size: 4 },
      { path: 'b.py', kind: 'text', size: 8 },
      { path: 'p.png', kind: 'image', size: 3 },
    ]);
  });

  it('uses a fence longer than any backtick run in the file, so the file cannot close it', () => {
    const text = 'before\n````js\ncode\n````\nafter\n';
    const { content } = composeAttachedMessage('@doc.md', [
      { kind: 'text', path: 'doc.md', text, size: text.length, attachedBytes: text.length },
    ]);
    expect(content).toBe(`@doc.md\n\ndoc.md\n\`\`\`\`\`\n${text}\`\`\`\`\``);
  });

  it('tells the model when only the head of a file is attached, and records it', () => {
    const message = composeAttachedMessage('@big.log', [
      { kind: 'text', path: 'big.log', text: 'x\n', size: 1_234_567, attachedBytes: 2 },
    ]);
    expect(message.content).toBe(
      '@big.log\n\nbig.log\n```\nx\n```\n[big.log is 1,234,567 bytes; only its first 2 are above.]',
    );
    expect(message.attachments).toEqual([
      { path: 'big.log', kind: 'text', size: 1_234_567, attachedBytes: 2 },
    ]);
  });
});

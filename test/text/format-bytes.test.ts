import { describe, expect, it } from 'vitest';
import { attachmentChip } from '../../src/attachments/attachment-chip.js';
import { formatBytes } from '../../src/text/format-bytes.js';

describe('formatBytes', () => {
  it('shows bytes, then kB/MB/GB with one decimal below 10', () => {
    expect([0, 999, 1000, 2100, 99_499, 999_400, 999_600, 1_234_567, 5e9].map(formatBytes)).toEqual([
      '0 B',
      '999 B',
      '1.0 kB',
      '2.1 kB',
      '99 kB',
      '999 kB',
      '1.0 MB',
      '1.2 MB',
      '5.0 GB',
    ]);
  });
});

describe('attachmentChip', () => {
  it('names the file with its size, the part attached, or that it is an image', () => {
    expect(attachmentChip({ path: 'notes.md', kind: 'text', size: 2100 })).toBe('📎 notes.md (2.1 kB)');
    expect(attachmentChip({ path: 'big.log', kind: 'text', size: 1_234_567, attachedBytes: 100_000 })).toBe(
      '📎 big.log (first 100 kB of 1.2 MB)',
    );
    expect(attachmentChip({ path: 'p.png', kind: 'image', size: 45_000 })).toBe('📎 p.png (image, 45 kB)');
  });
});

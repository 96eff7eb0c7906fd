import { describe, expect, it } from 'vitest';

// Ink's chalk decides on colours when first imported; force them for this file only.
process.env.FORCE_COLOR = '3';
const { render } = await import('ink-testing-library');
const { StatusLine } = await import('../../../src/ui/components/status-line.js');

function meterFrame(used: number): string {
  const { lastFrame, unmount } = render(<StatusLine model="m" numCtx={1000} used={used} />);
  const frame = lastFrame() ?? '';
  unmount();
  return frame;
}

describe('StatusLine meter colours (forced colour)', () => {
  it('is green, yellow and red by fill', () => {
    expect(meterFrame(100)).toContain('\x1b[32m100/1k (10%)');
    expect(meterFrame(700)).toContain('\x1b[33m700/1k (70%)');
    expect(meterFrame(900)).toContain('\x1b[31m900/1k (90%)');
  });
});

import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { contextMeterColor, contextMeterText, StatusLine } from '../../../src/ui/components/status-line.js';

describe('StatusLine', () => {
  it('shows model · meter · busy label · hint', () => {
    const { lastFrame, unmount } = render(
      <StatusLine model="qwen3" numCtx={8192} used={1229} busy="compacting…" hint="esc to cancel" />,
    );
    expect(lastFrame()).toMatch(/^qwen3 · 1\.2k\/8k \(15%\) · \S compacting… · esc to cancel$/);
    unmount();
  });

  it('leaves out busy and hint when absent', () => {
    const { lastFrame, unmount } = render(<StatusLine model="llama3" numCtx={4096} used={0} />);
    expect(lastFrame()).toBe('llama3 · 0/4k (0%)');
    unmount();
  });

  it("says after the meter where a server's window came from, its control characters made harmless", () => {
    const { lastFrame, unmount } = render(
      <StatusLine
        model="tiny"
        numCtx={2048}
        used={1126}
        windowSource="learnt from refusal"
        busy="compacting…"
      />,
    );
    expect(lastFrame()).toMatch(/^tiny · 1\.1k\/2k \(55%\) learnt from refusal · \S compacting…$/);
    unmount();
    const hostile = render(<StatusLine model="tiny" numCtx={2048} used={0} windowSource={'/props\x1b[2J'} />);
    expect(hostile.lastFrame()).not.toContain('\x1b[2J');
    hostile.unmount();
  });

  it('colours the meter green, then yellow from 60%, red from 85%', () => {
    expect(contextMeterColor(0, 8192)).toBe('green');
    expect(contextMeterColor(4914, 8192)).toBe('green'); // 59.99%
    expect(contextMeterColor(4916, 8192)).toBe('yellow'); // 60.01%
    expect(contextMeterColor(6962, 8192)).toBe('yellow'); // 84.99%
    expect(contextMeterColor(6964, 8192)).toBe('red');
    expect(contextMeterColor(9000, 8192)).toBe('red');
    expect(contextMeterColor(10, 0)).toBe('red');
  });

  it('formats the meter with rounded percent', () => {
    expect(contextMeterText(6150, 8192)).toBe('6.2k/8k (75%)');
  });
});

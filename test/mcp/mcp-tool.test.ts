import { describe, expect, it } from 'vitest';
import { mcpSummaryLine } from '../../src/mcp/mcp-tool.js';

describe('mcpSummaryLine', () => {
  it('names the tool, its argument and what came back, deterministically', () => {
    expect(
      mcpSummaryLine(
        'everything__echo',
        { message: 'MCP-ECHO-42' },
        { ok: true, output: 'Echo: MCP-ECHO-42' },
      ),
    ).toBe('everything__echo: "MCP-ECHO-42" → 1 line');
    expect(
      mcpSummaryLine(
        'everything__get-tiny-image',
        {},
        { ok: true, output: 'a\nb', details: { kinds: { text: 2, image: 1 } } },
      ),
    ).toBe('everything__get-tiny-image: () → 1 image, 2 lines');
    expect(mcpSummaryLine('everything__get-sum', { a: 2, b: 3 }, { ok: true, output: '5' })).toBe(
      'everything__get-sum: a=2 b=3 → 1 line',
    );
  });

  it('says when the call failed or did not run', () => {
    expect(
      mcpSummaryLine('fs__read', { path: '/x' }, { ok: false, output: 'Error: fs__read failed: ENOENT' }),
    ).toBe('fs__read: "/x" → error: fs__read failed: ENOENT');
    expect(
      mcpSummaryLine('fs__read', {}, { ok: false, output: 'declined', details: { skipped: 'declined' } }),
    ).toBe('fs__read: () → not run (declined by the user)');
  });
});

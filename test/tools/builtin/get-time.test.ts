import { describe, expect, it } from 'vitest';
import { getTimeTool } from '../../../src/tools/builtin/get-time.js';
import { makeContext, makeTempDir } from '../temp-sandbox.js';

describe('get_time', () => {
  it('reports the injected clock in UTC and summarizes to the minute', async () => {
    const ctx = makeContext(makeTempDir(), { now: () => new Date('2026-12-02T14:03:59Z') });
    const outcome = await getTimeTool.run({}, ctx);
    expect(outcome.ok).toBe(true);
    expect(outcome.output).toContain('2026-12-02 14:03:59 UTC');
    expect(outcome.output).toContain('local time:');
    expect(getTimeTool.summaryLine({}, outcome)).toBe('time 2026-12-02 14:03 UTC');
    expect(getTimeTool.keyArgument({})).toBe('');
  });
});

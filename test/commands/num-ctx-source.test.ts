import { describe, expect, it } from 'vitest';
import type { ModelInfo } from '../../src/backend/interfaces.js';
import { describeNumCtxSource, numCtxSourceLabel } from '../../src/commands/num-ctx-source.js';

const props: ModelInfo = {
  name: 'tiny',
  capabilities: [],
  serverWindow: { tokens: 2048, source: 'llama-server /props n_ctx', label: '/props' },
};

describe('where the window in force came from', () => {
  it("in words for /set and /context, in a word for the status line: the server's endpoint, a flag, a refusal", () => {
    expect(describeNumCtxSource('server', props)).toBe('llama-server /props n_ctx');
    expect(numCtxSourceLabel('server', props)).toBe('/props');
    expect(numCtxSourceLabel('flag', props)).toBe('--num-ctx');
    expect(numCtxSourceLabel('refusal', props)).toBe('learnt from refusal');
    expect(numCtxSourceLabel('/set', props)).toBe('/set');
    expect(describeNumCtxSource('refusal', props)).toBe("the server's refusal of a longer prompt");
  });

  it('a server that publishes no window: its figure is a guess, and says so', () => {
    const guessed: ModelInfo = {
      name: 'm',
      capabilities: [],
      serverWindow: {
        tokens: 4096,
        source: 'a cautious guess: the server publishes no window',
        label: 'guessed',
        guessed: true,
      },
    };
    expect(numCtxSourceLabel('server', guessed)).toBe('guessed');
  });
});

import { describe, expect, it } from 'vitest';
import { cpuPercent, processorSplit, spills, suggestNumCtx } from '../../../src/chat/model/gpu-fit.js';

const GB = 1_000_000_000;
/** A model of 4 GB of weights and 64 kB of KV cache per token, on a GPU of `gpu` bytes. */
const measured = (numCtx: number, gpu = 8 * GB) => {
  const size = 4 * GB + numCtx * 64_000;
  return { numCtx, size, sizeVram: Math.min(size, gpu) };
};

describe('processorSplit (ollama ps)', () => {
  it('prints 100% GPU, 100% CPU, or the CPU/GPU split rounded as ollama ps does', () => {
    expect(processorSplit(10, 10)).toBe('100% GPU');
    expect(processorSplit(10, 0)).toBe('100% CPU');
    expect(processorSplit(10 * GB, 4 * GB)).toBe('60%/40% CPU/GPU');
    expect(processorSplit(1000, 994)).toBe('1%/99% CPU/GPU');
    expect(cpuPercent(3, 2)).toBe(33);
  });
});

describe('suggestNumCtx', () => {
  it('is the largest power-of-two window whose estimated size fits, from two measured points', () => {
    const small = measured(8192);
    const big = measured(131072); // 4 GB + 8.4 GB: spills on 8 GB
    expect(spills(small)).toBe(false);
    expect(spills(big)).toBe(true);
    // (8 GB − 4 GB) / 64 kB = 62,500 tokens: 32,768 fits, 65,536 does not.
    expect(suggestNumCtx([small, big], big)).toBe(32768);
  });

  it('makes no suggestion from one point, or when the model spills at every window', () => {
    const big = measured(131072);
    expect(suggestNumCtx([big], big)).toBeUndefined();
    const weightsTooBig = (numCtx: number) => ({ numCtx, size: 9 * GB + numCtx * 64_000, sizeVram: 8 * GB });
    expect(suggestNumCtx([weightsTooBig(4096), weightsTooBig(65536)], weightsTooBig(65536))).toBeUndefined();
    expect(suggestNumCtx([measured(8192)], measured(8192))).toBeUndefined();
    const cpuOnly = { numCtx: 8192, size: 5 * GB, sizeVram: 0 };
    expect(suggestNumCtx([measured(4096), cpuOnly], cpuOnly)).toBeUndefined();
  });

  it('never suggests a window at or above the spilling one', () => {
    const just = measured(65536, 4 * GB + 65536 * 64_000 - 1);
    expect(suggestNumCtx([measured(4096, just.sizeVram), just], just)).toBe(32768);
  });
});

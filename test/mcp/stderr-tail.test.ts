import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import {
  followStderr,
  STDERR_BYTES_PER_WINDOW,
  STDERR_TAIL_LINES,
  STDERR_WINDOW_MS,
  StderrTail,
} from '../../src/mcp/stderr-tail.js';
import { deliberatePause } from '../support/wait-until.js';

describe('StderrTail', () => {
  test('keeps the last lines of each slice, whatever came before, and counts every byte', () => {
    const tail = new StderrTail();
    tail.push('first\nsecond\npart');
    expect(tail.lines()).toEqual(['first', 'second', 'part']);
    tail.push('ial\n');
    expect(tail.lines()).toEqual(['first', 'second', 'partial']);
    const many = Array.from({ length: 100_000 }, (_, i) => `line ${i}`).join('\n');
    tail.push(Buffer.from(`${many}\nunfinished`));
    expect(tail.lines()).toEqual([
      ...Array.from({ length: STDERR_TAIL_LINES }, (_, i) => `line ${100_000 - STDERR_TAIL_LINES + i}`),
      'unfinished',
    ]);
    expect(tail.bytes).toBe('first\nsecond\npartial\n'.length + many.length + '\nunfinished'.length);
    expect(tail.droppedNote()).toBe('1.1 MB of stderr, all but the last 12 lines dropped');
  });

  test('a server that writes a few lines has nothing dropped to say', () => {
    const tail = new StderrTail();
    tail.push('listening\n');
    expect(tail.droppedNote()).toBeUndefined();
  });

  test('followStderr reads at most its budget per window from a stream that never ends, and says its writes wait', async () => {
    const stream = new PassThrough();
    const tail = new StderrTail();
    followStderr(stream, tail);
    const block = Buffer.alloc(64 * 1024, 0x61);
    let writing = true;
    // As fast as the stream takes it, yielding between blocks: a reader without a limit reads it all.
    const write = () => {
      if (!writing) return;
      if (stream.write(block)) setImmediate(write);
      else stream.once('drain', write);
    };
    write();
    await deliberatePause(5 * STDERR_WINDOW_MS, 'five windows of reading from a writer that never stops');
    writing = false;
    // Five windows, the one under way, and what one slice may run over.
    expect(tail.bytes).toBeLessThanOrEqual(7 * STDERR_BYTES_PER_WINDOW);
    expect(tail.bytes).toBeGreaterThan(0);
    expect(tail.droppedNote()).toMatch(/so its writes wait$/);
    stream.destroy();
  });
});

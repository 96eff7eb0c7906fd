/**
 * Bounded memory and prompt cancels for huge replies, on the built CLI: a reply is kept up to
 * MAX_REPLY_CHARS (then a visible note, the request stopped, the kept part in the session), and
 * Ctrl+C takes effect within a second of the app's CPU while bytes arrive as fast as the emulator
 * sends them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { MAX_REPLY_CHARS } from '../../src/ollama/reply-accumulator.js';
import { type ChatRun, startChat } from '../support/e2e-chat.js';
import { cpuMs } from '../support/process-cpu.js';
import { peakRssMb } from '../support/process-memory.js';

let run: ChatRun | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

describe('a huge reply', () => {
  test('is cut at the cap with a visible note, the request stopped; memory and the session line stay bounded', async () => {
    run = await startChat();
    const { emu, pty } = run;
    // 12 M characters, sent as fast as the socket takes them.
    emu.enqueue({ content: 'lorem ipsum dolor sit amet '.repeat(450_000), pieceChars: 64 * 1024 });
    pty.write('say a lot\r');
    await pty.waitFor('The reply grew past 4 M characters', 30_000);
    const peak = peakRssMb(pty.pid);
    process.stdout.write(`big reply: peak RSS ${peak.toFixed(0)} MB for a 12 M-character reply\n`);
    expect(peak).toBeLessThan(300);
    pty.write('/quit\r');
    await pty.exited;
    const sessions = join(pty.home, 'data', 'ochat', 'sessions');
    const [file] = readdirSync(sessions).filter((f) => f.endsWith('.jsonl'));
    const longest = Math.max(
      ...readFileSync(join(sessions, file), 'utf8')
        .split('\n')
        .map((l) => l.length),
    );
    expect(longest).toBeLessThan(MAX_REPLY_CHARS + 1024);
    expect(longest).toBeGreaterThan(MAX_REPLY_CHARS - 1024);
  }, 60_000);

  test('Ctrl+C while a fast reply streams takes effect within a second of CPU', async () => {
    run = await startChat();
    const { emu, pty } = run;
    // Sent as fast as the socket takes it, and then never finished: a reply that fits the kernel's
    // socket buffers can be read whole before the key arrives, leaving nothing to cancel.
    emu.enqueue({
      content: 'lorem ipsum dolor sit amet\n\n'.repeat(140_000),
      pieceChars: 256,
      fault: { kind: 'hang', afterChunks: Number.MAX_SAFE_INTEGER },
    });
    pty.write('say a lot\r');
    await pty.waitFor('lorem ipsum', 10_000, { settle: false });
    const pressed = Date.now();
    const cpuAtPress = cpuMs(pty.pid);
    pty.write('\x03');
    await pty.waitFor('Reply interrupted; the partial reply is kept.', 10_000, { settle: false });
    const latency = Date.now() - pressed;
    const cpu = cpuMs(pty.pid) - cpuAtPress;
    process.stdout.write(`big reply: Ctrl+C took ${latency} ms, ${cpu} ms of ochat's CPU\n`);
    // The app's work until the key took effect, not the wall time (898 ms beside a CPU hog at load
    // 9, where ochat waits for a core): a key taken only after the backlog of chunks is worked
    // through costs the app seconds of CPU at any load; 292-560 ms of wall time at load ~2.
    expect(cpu).toBeLessThan(1_000);
  }, 30_000);
});

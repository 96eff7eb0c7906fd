import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../test/support/emulator.js';
import { type PtySession, spawnOchat } from '../test/support/pty-session.js';
import type { BenchRow, BenchSuite } from './bench-row.js';
import { median } from './process-stats.js';

const MODEL = 'bench-model';
const PASTE_LINES = 1_523;
const KEYSTROKES = 7;

/** ~100 KB of log lines (65 characters and a line break each), the last one marked so its arrival can be seen. */
function pastedLog(): string {
  const lines: string[] = [];
  for (let i = 1; i <= PASTE_LINES; i++) {
    lines.push(
      `2026-12-03T09:14:${String(i % 60).padStart(2, '0')}Z INFO worker ${i} done, queue ok`.padEnd(65, '.'),
    );
  }
  lines[PASTE_LINES - 1] = 'LAST-PASTED-LINE';
  return lines.join('\r');
}

/** One paragraph of `bytes` characters, no line break, ending in a marker. */
function hugeParagraph(bytes: number): string {
  const marker = ' END-OF-HUGE-REPLY';
  return 'lorem ipsum dolor sit amet '.repeat(Math.ceil(bytes / 27)).slice(0, bytes - marker.length) + marker;
}

async function timeUntil(session: PtySession, pattern: RegExp, timeoutMs: number): Promise<number> {
  const start = performance.now();
  await session.waitFor(pattern, timeoutMs, { settle: false });
  return performance.now() - start;
}

/**
 * Big text in and out of the real CLI in a PTY: a 100 KB bracketed paste (time to appear, then
 * keystroke latency after it), and a 1 MB single-paragraph reply (time to show, next exchange).
 */
export const bigTextBench: BenchSuite = async () => {
  const emulator = await startEmulator({
    models: [{ name: `${MODEL}:latest` }],
    tokensPerSecond: Number.POSITIVE_INFINITY,
  });
  const dir = mkdtempSync(join(tmpdir(), 'ochat-bench-'));
  const config = join(dir, 'config.yml');
  writeFileSync(config, 'compaction:\n  auto: false\noptions:\n  num_ctx: 1048576\n');
  const session = spawnOchat(['-m', MODEL, '-c', config], {
    env: { OLLAMA_HOST: emulator.url },
    rows: 40,
    cols: 120,
  });
  const rows: BenchRow[] = [];
  try {
    await session.waitFor('›', 15_000);
    const paste = pastedLog();
    const pasteStart = performance.now();
    await session.writeInPieces(`\x1b[200~${paste}\x1b[201~`);
    const writtenMs = performance.now() - pasteStart;
    // Collapsed into a chip, or (uncollapsed) the last pasted line shown in the prompt.
    await session.waitFor(/pasted 1,523 lines|LAST-PASTED-LINE/, 120_000, { settle: false });
    const pasteMs = performance.now() - pasteStart;
    const keyMs: number[] = [];
    for (let i = 1; i <= KEYSTROKES; i++) {
      session.write('z');
      keyMs.push(await timeUntil(session, new RegExp(`(LINE|lines\\])z{${i}}(?!z)`), 60_000));
    }
    const keyMedian = median(keyMs);
    rows.push(
      {
        name: `bracketed paste of ${(paste.length / 1000).toFixed(0)} kB (${PASTE_LINES} lines): on screen after`,
        value: Math.round(pasteMs),
        unit: 'ms',
        target: '≤ 300',
        pass: pasteMs <= 300,
      },
      {
        name: 'of which the PTY took to carry it to the app (the last byte written after)',
        value: Math.round(writtenMs),
        unit: 'ms',
      },
      {
        name: `keystroke after that paste, median of ${KEYSTROKES} (max ${Math.round(Math.max(...keyMs))} ms)`,
        value: Math.round(keyMedian),
        unit: 'ms',
        target: '≤ 50',
        pass: keyMedian <= 50,
      },
    );
    // Clear the prompt (Ctrl+U twice covers a chip and the typed z's) before the reply test.
    session.write('\x15\x15');
    session.write('\x1b');

    const bytes = 1_000_000;
    emulator.enqueue({ content: hugeParagraph(bytes), pieceChars: 65_536 });
    const replyStart = performance.now();
    session.write('huge\r');
    await session.waitFor('END-OF-HUGE-REPLY', 120_000, { settle: false });
    const replyMs = performance.now() - replyStart;
    rows.push({
      name: '1 MB single-paragraph reply in 64 kB pieces: its end on screen after',
      value: Math.round(replyMs),
      unit: 'ms',
    });
    const nextStart = performance.now();
    session.write('after huge\r');
    let nextMs = Number.NaN;
    try {
      await session.waitFor('Echo: after huge', 120_000, { settle: false });
      nextMs = performance.now() - nextStart;
    } catch {
      // reported as NaN: the app did not answer within 120 s
    }
    rows.push({
      name: 'the next exchange after that reply: answered after',
      value: Math.round(nextMs),
      unit: 'ms',
      target: '≤ 1000',
      pass: nextMs <= 1000,
    });
    return rows;
  } finally {
    await session.dispose();
    await emulator.close();
  }
};

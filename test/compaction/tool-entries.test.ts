import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  collectToolEntries,
  MAX_TOOL_ENTRY_CHARS,
  mergeToolEntries,
  shellEntryLine,
  toolEntryBullet,
  toolEntryLine,
} from '../../src/compaction/tool-entries.js';
import type { Message } from '../../src/conversation/message.js';
import { buildTranscript } from '../conversation/fixtures.js';

const tool = (tool_name: string | undefined, tool_summary?: string): Message => ({
  id: 1,
  turn: 0,
  role: 'tool',
  content: 'output',
  at: '',
  ...(tool_name ? { tool_name } : {}),
  ...(tool_summary !== undefined ? { tool_summary } : {}),
});

const length = (s: string) => s.length;
const cost = (entries: string[]) => entries.reduce((sum, e) => sum + toolEntryBullet(e).length, 0);

describe('toolEntryLine', () => {
  it('uses the stored summary, naming the tool unless the summary already does', () => {
    expect(toolEntryLine(tool('read_file', 'read a.ts (340 lines)'))).toBe(
      'read_file: read a.ts (340 lines)',
    );
    expect(toolEntryLine(tool('read_file', 'read_file a.ts'))).toBe('read_file a.ts');
    expect(toolEntryLine(tool('run_command', 'ran\n  `ls`\n'))).toBe('run_command: ran `ls`');
  });

  it('says the tool was called when there is no summary', () => {
    expect(toolEntryLine(tool('run_command'))).toBe('run_command was called.');
    expect(toolEntryLine(tool('run_command', '  '))).toBe('run_command was called.');
    expect(toolEntryLine(tool(undefined))).toBe('unknown_tool was called.');
  });

  it('caps a runaway summary', () => {
    const line = toolEntryLine(tool('t', `t ${'y'.repeat(1000)}`));
    expect(line.startsWith(`t ${'y'.repeat(100)}`)).toBe(true);
    expect(line).toMatch(/… \[\+\d+ chars\]$/);
    expect(line.length).toBeLessThan(MAX_TOOL_ENTRY_CHARS + 20);
  });
});

describe('collectToolEntries', () => {
  it('makes one line per tool result, in order', () => {
    const slice = buildTranscript([
      {
        user: 'go',
        steps: [
          {
            tools: [
              { name: 'read_file', output: 'x', summary: 'read a' },
              { name: 'search', output: 'y' },
            ],
          },
          { reply: 'ok' },
        ],
      },
    ]);
    expect(collectToolEntries(slice)).toEqual(['read_file: read a', 'search was called.']);
  });
});

describe('mergeToolEntries', () => {
  it('carries entries over in order while they fit', () => {
    expect(mergeToolEntries(['a: 1'], ['b: 2'], 1000, length)).toEqual(['a: 1', 'b: 2']);
  });

  it('merges as few of the oldest as needed into one count line', () => {
    const previous = [
      ...Array.from({ length: 20 }, (_, i) => `read_file: x${i}`),
      ...Array.from({ length: 17 }, (_, i) => `run_command: y${i}`),
    ];
    const added = ['write_file: z1', 'write_file: z2', 'write_file: z3'];
    const expectedLine = '… 37 earlier tool calls (read_file ×20, run_command ×17)';
    const max = cost([expectedLine, ...added]);
    expect(mergeToolEntries(previous, added, max, length)).toEqual([expectedLine, ...added]);
  });

  it('keeps every line exactly while they fit', () => {
    const all = ['read_file: read a.ts (lines 1–9 of 9)', 'read_file: read a.ts (lines 1–9 of 9)'];
    expect(mergeToolEntries(all, [], cost(all), length)).toEqual(all);
  });

  it('folds repeated lines first, then repeated calls on one thing, before merging into a count', () => {
    const reads = [
      'read_file: read a.ts (lines 1–50 of 200)',
      'get_time: time 2026-12-03 06:00 UTC',
      'read_file: read a.ts (lines 1–50 of 200)',
      'read_file: read a.ts (lines 51–100 of 200)',
    ];
    const identical = [
      'get_time: time 2026-12-03 06:00 UTC',
      'read_file: read a.ts (lines 1–50 of 200) (×2)',
      'read_file: read a.ts (lines 51–100 of 200)',
    ];
    expect(mergeToolEntries(reads, [], cost(identical), length)).toEqual(identical);
    const sameFile = ['get_time: time 2026-12-03 06:00 UTC', 'read_file: read a.ts (×3)'];
    expect(mergeToolEntries(reads, [], cost(sameFile), length)).toEqual(sameFile);
    // A folded line counts as the calls it stands for when it is merged into a count line.
    expect(
      mergeToolEntries(
        reads,
        ['x: 1'],
        cost(['… 4 earlier tool calls (read_file ×3, get_time ×1)', 'x: 1']),
        length,
      ),
    ).toEqual(['… 4 earlier tool calls (read_file ×3, get_time ×1)', 'x: 1']);
  });

  it('folds an earlier count line into the new one', () => {
    const previous = ['… 37 earlier tool calls (read_file ×20, run_command ×17)', 'read_file: q'];
    const expected = ['… 38 earlier tool calls (read_file ×21, run_command ×17)', 'x: 1'];
    expect(mergeToolEntries(previous, ['x: 1'], cost(expected), length)).toEqual(expected);
  });

  it('falls back to a bare count, then to nothing, in absurdly small budgets', () => {
    expect(mergeToolEntries(['read_file: a', 'run_command: b'], [], 25, length)).toEqual([
      '… 2 earlier tool calls',
    ]);
    expect(mergeToolEntries(['read_file: a'], [], 5, length)).toEqual([]);
  });

  it('never exceeds its budget, keeps all exactly when they fit, and accounts for every call', () => {
    const entry = fc.tuple(
      fc.constantFrom('read_file', 'run_command', 'search', 'a', 'b', 'c', 'd', 'e', 'f'),
      fc.oneof(fc.string(), fc.constantFrom('a.ts (lines 1–2)', 'a.ts (lines 3–4)', 'b.ts', 'x')),
    );
    const entries = fc.array(entry.map(([name, rest]) => `${name}: ${rest.replace(/\s/g, '_')}`));
    fc.assert(
      fc.property(entries, entries, fc.integer({ min: 0, max: 2000 }), (previous, added, max) => {
        const merged = mergeToolEntries(previous, added, max, length);
        expect(cost(merged)).toBeLessThanOrEqual(max);
        expect(mergeToolEntries(previous, added, max, length)).toEqual(merged);
        const all = [...previous, ...added];
        if (cost(all) <= max) expect(merged).toEqual(all);
        const head = /^… (\d+) earlier tool calls?/.exec(merged[0] ?? '');
        const kept = head ? merged.slice(1) : merged;
        const calls = (e: string) => Number(/ \(×(\d+)\)$/.exec(e)?.[1] ?? 1);
        if (merged.length) {
          expect((head ? Number(head[1]) : 0) + kept.reduce((sum, e) => sum + calls(e), 0)).toBe(all.length);
        }
      }),
    );
  });

  it('names at most six tools, most called first (ties by name), and counts the rest as other', () => {
    const counts: Record<string, number> = { a: 1, b: 5, c: 2, d: 2, e: 3, f: 4, g: 1, h: 1 };
    const previous = Object.entries(counts).flatMap(([name, n]) => Array(n).fill(`${name}: x`));
    const expectedLine = '… 19 earlier tool calls (b ×5, f ×4, e ×3, c ×2, d ×2, a ×1, other ×2)';
    expect(mergeToolEntries(previous, ['z: last'], cost([expectedLine, 'z: last']), length)).toEqual([
      expectedLine,
      'z: last',
    ]);
  });

  it('says "call" for one merged call, and keeps the unnamed calls of an earlier count line as other', () => {
    const long = 'x'.repeat(80);
    const one = ['… 1 earlier tool call (read_file ×1)', 'b: 1'];
    expect(mergeToolEntries([`read_file: ${long}`, 'b: 1'], [], cost(one), length)).toEqual(one);
    // 5 calls of which 3 are named: the 2 others stay counted; a bare count line is read too.
    const previous = [
      '… 5 earlier tool calls (read_file ×3, other ×2)',
      '… 4 earlier tool calls',
      `x: ${long}`,
    ];
    const expected = ['… 10 earlier tool calls (other ×6, read_file ×3, x ×1)', 'y: 2'];
    expect(mergeToolEntries(previous, ['y: 2'], cost(expected), length)).toEqual(expected);
  });

  it('reads a count line only at the start of an entry, and names an entry by its first word', () => {
    const long = 'x'.repeat(80);
    const previous = [`note: … 9 earlier tool calls ${long}`, `:odd entry ${long}`, 'q: 1'];
    const expected = ['… 2 earlier tool calls (note ×1, other ×1)', 'q: 1'];
    expect(mergeToolEntries(previous, [], cost(expected), length)).toEqual(expected);
  });

  it('merges when the entries are exactly one token over, not when they exactly fit', () => {
    const entries = ['read_file: a', 'read_file: b'];
    expect(mergeToolEntries(entries, [], cost(entries), length)).toEqual(entries);
    expect(mergeToolEntries(entries, [], cost(entries) - 1, length)).not.toEqual(entries);
  });
});

describe('shellEntryLine', () => {
  const base = { id: 1, turn: 1, at: '2026-01-01T00:00:00.000Z', content: 'I ran…' } as const;

  it('says what the user ran and how it ended, and is collected in order with tool lines', () => {
    const run = {
      ...base,
      role: 'user' as const,
      shell: { command: 'git\n status', cwd: '/w', end: 'exit 1', ok: false },
    };
    expect(shellEntryLine(run)).toBe('shell: git status run by the user (exit 1)');
    const tool = { ...base, id: 2, role: 'tool' as const, tool_name: 'read_file', tool_summary: 'read a.ts' };
    expect(collectToolEntries([run, { ...base, role: 'user', content: 'hi' }, tool])).toEqual([
      'shell: git status run by the user (exit 1)',
      'read_file: read a.ts',
    ]);
  });

  it('cuts a long command, not how it ended', () => {
    const command = `echo ${'x'.repeat(400)}`;
    const line = shellEntryLine({
      ...base,
      role: 'user',
      shell: { command, cwd: '/w', end: 'cancelled', ok: false },
    });
    expect(line!.length).toBeLessThanOrEqual(MAX_TOOL_ENTRY_CHARS);
    expect(line!.endsWith('… run by the user (cancelled)')).toBe(true);
  });

  it('is nothing for a message the user wrote', () => {
    expect(shellEntryLine({ ...base, role: 'user' })).toBeUndefined();
  });
});

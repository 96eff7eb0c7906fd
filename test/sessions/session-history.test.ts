import { describe, expect, test } from 'vitest';
import { formatHistory } from '../../src/sessions/session-history.js';
import { HEADER, message, record } from './fixtures.js';

describe('formatHistory', () => {
  test('shows every message, marks what the summary in force stands for, and every compaction attempt', () => {
    const text = formatHistory(HEADER, [
      message(1, 'user', 'first'),
      message(2, 'assistant', 'reply one'),
      { type: 'compaction-failed', at: 'T1', trigger: 'auto', reason: 'server down' },
      { type: 'compaction', record: record(2) },
      message(3, 'user', 'second'),
      message(4, 'assistant', 'cut', { interrupted: true }),
      { type: 'replaced', at: 'T2', ids: [4] },
    ]);
    const lines = text.split('\n');
    expect(lines[0]).toContain(HEADER.id);
    expect(lines).toContain('[1] (summarized) user: first');
    expect(lines).toContain('[2] (summarized) assistant: reply one');
    expect(lines).toContain('── compaction failed T1 (auto): server down');
    expect(lines.some((l) => l.startsWith('── compacted ') && l.includes('messages 1–2 summarized'))).toBe(
      true,
    );
    expect(lines).toContain('[3] user: second');
    expect(lines).toContain('[4] (replaced, interrupted) assistant: cut');
    expect(lines.at(-1)).toBe('── /retry T2: the reply above was replaced by a new reply');
  });

  test('a message with attachments shows what was typed and a chip per file, not the files', () => {
    const text = formatHistory(HEADER, [
      message(1, 'user', 'see @a.md\n\na.md\n```\nTHE-BODY\n```', {
        typed: 'see @a.md and @p.png',
        images: ['aGk='],
        attachments: [
          { path: 'a.md', kind: 'text', size: 2100 },
          { path: 'p.png', kind: 'image', size: 3 },
        ],
      }),
    ]);
    expect(text.split('\n')).toContain(
      '[1] user: see @a.md and @p.png 📎 a.md (2.1 kB) 📎 p.png (image, 3 B)',
    );
    expect(text).not.toContain('THE-BODY');
  });

  test('the meter is bookkeeping, not shown; a /tools change is', () => {
    const text = formatHistory(HEADER, [
      message(1, 'user', 'first'),
      { type: 'setting', at: 'T', key: 'meter', value: { charsPerToken: 3 } },
      { type: 'setting', at: 'T', key: 'tools', value: { run_command: false } },
    ]);
    expect(text).not.toContain('meter');
    expect(
      formatHistory(HEADER, [{ type: 'setting', at: 'T', key: 'auto_compaction_paused', value: true }]),
    ).toContain('── automatic compaction paused');
    expect(text).toContain('── tools set to off: run_command');
    const more = formatHistory(HEADER, [
      {
        type: 'setting',
        at: 'T',
        key: 'tools',
        value: { read_file: true, get_time: true, run_command: false },
      },
      { type: 'setting', at: 'T', key: 'options', value: { temperature: 0.2, stop: ['END'] } },
      { type: 'setting', at: 'T', key: 'keep_alive', value: '2h' },
    ]).split('\n');
    expect(more).toContain('── tools set to on: read_file, get_time; off: run_command');
    expect(more).toContain('── options set to temperature=0.2, stop=["END"]');
    expect(more).toContain('── keep_alive set to 2h');
  });

  test('after /uncompact nothing is marked summarized', () => {
    const text = formatHistory(HEADER, [
      message(1, 'user', 'first'),
      { type: 'compaction', record: record(1) },
      { type: 'uncompact', at: 'T3' },
    ]);
    expect(text).toContain('[1] user: first');
    expect(text).toContain('── uncompacted T3');
  });

  test('says what a compaction cut from its summary', () => {
    const text = formatHistory(HEADER, [
      message(1, 'user', 'first'),
      { type: 'compaction', record: { ...record(1), cut: { text: 'yada', tokens: 12, endsLost: 1 } } },
    ]);
    expect(text).toContain(
      "1000 → 200 tokens; summary cut: the summarizer's reply ran past its length limit and lost its end; 12 tokens dropped",
    );
  });
});

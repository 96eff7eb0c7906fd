import { describe, expect, test } from 'vitest';
import { transcriptItems } from '../../../src/chat/state/transcript-items.js';
import { message, record } from '../../sessions/fixtures.js';

let n = 0;
const itemId = () => `r${++n}`;

describe('transcriptItems', () => {
  test('shows messages as the chat did: user, thinking, reply, tool line, compaction report', () => {
    const items = transcriptItems({
      entries: [
        message(1, 'user', 'read it'),
        message(2, 'assistant', '', {
          thinking: 'hmm',
          tool_calls: [{ function: { name: 'read_file', arguments: {} } }],
        }),
        message(3, 'tool', 'text', {
          tool_name: 'read_file',
          tool_args: { path: 'a.txt' },
          tool_summary: 'read a.txt',
        }),
        message(4, 'assistant', 'Done.', { interrupted: true }),
        { type: 'compaction', record: record(4) },
      ],
      itemId,
      keyArgument: (_tool, args) => String(args.path),
    });
    expect(items.map((i) => i.kind)).toEqual(['user', 'thinking', 'tool', 'assistant', 'notice']);
    expect(items[2]).toMatchObject({
      name: 'read_file',
      keyArgument: 'a.txt',
      summary: 'read a.txt',
      ok: true,
    });
    expect(items[3]).toMatchObject({ markdown: 'Done.', interrupted: true });
    expect(items[4]).toMatchObject({ level: 'success', text: 'Compacted 4 messages: 1k → 200 tokens' });
  });

  test('a compaction says its percentages of the window then in force; /set num_ctx and /model changes show where they happened', () => {
    const setting = (key: 'model' | 'num_ctx', value: unknown) =>
      ({ type: 'setting', at: '', key, value }) as const;
    const items = transcriptItems({
      entries: [
        setting('model', 'm1'),
        setting('num_ctx', 2048),
        message(1, 'user', 'one'),
        { type: 'compaction', record: record(1) },
        // The same value again (a resume records it): not a change.
        setting('num_ctx', 2048),
        setting('num_ctx', 4096),
        message(2, 'user', 'two'),
        { type: 'compaction', record: record(2) },
        setting('model', 'm2'),
      ],
      itemId,
      keyArgument: () => '',
    });
    expect(items.map((i) => (i.kind === 'notice' ? i.text : i.kind))).toEqual([
      'user',
      'Compacted 1 message: 1k → 200 tokens (49% → 10% of 2k)',
      'num_ctx = 4096',
      'user',
      'Compacted 1 message: 1k → 200 tokens (24% → 5% of 4k)',
      'Switched to m2.',
    ]);
  });

  test('a message with attachments shows what was typed and one chip per file, not the file', () => {
    const items = transcriptItems({
      entries: [
        message(1, 'user', 'see @a.md\n\na.md\n```\nsecret body\n```', {
          typed: 'see @a.md',
          attachments: [{ path: 'a.md', kind: 'text', size: 12 }],
        }),
        // A hand-edited file with a broken field falls back to the content as sent.
        message(2, 'user', 'plain', { typed: 'x', attachments: 'broken' as never }),
      ],
      itemId,
      keyArgument: () => '',
    });
    expect(items).toMatchObject([
      { kind: 'user', text: 'see @a.md', attachments: [{ path: 'a.md', kind: 'text', size: 12 }] },
      { kind: 'user', text: 'plain' },
    ]);
    expect(items[1]).not.toHaveProperty('attachments');
  });

  test('a long session shows its newest messages after one line pointing to /history', () => {
    const entries = Array.from({ length: 10 }, (_, i) => message(i + 1, 'user', `m${i + 1}`));
    const items = transcriptItems({ entries, itemId, keyArgument: () => '', shown: 3 });
    expect(items[0]).toMatchObject({
      kind: 'notice',
      text: '7 earlier messages not shown; /history shows the whole session.',
    });
    expect(items.slice(1).map((i) => (i.kind === 'user' ? i.text : ''))).toEqual(['m8', 'm9', 'm10']);
  });

  test('a reply /retry replaced is not shown again (/history has it)', () => {
    const items = transcriptItems({
      entries: [
        message(1, 'user', 'q'),
        message(2, 'assistant', 'old'),
        { type: 'replaced', at: 'T', ids: [2] },
        message(3, 'assistant', 'new'),
      ],
      itemId,
      keyArgument: () => '',
    });
    expect(items.map((i) => (i.kind === 'assistant' ? i.markdown : i.kind))).toEqual(['user', 'new']);
  });

  test('a !command run shows what ran and how it ended, not its output as a message', () => {
    const items = transcriptItems({
      entries: [
        message(1, 'user', 'I ran a shell command in /w (exit code 0); …', {
          shell: { command: 'git status', cwd: '/w', end: 'exit 0', ok: true },
        }),
      ],
      itemId,
      keyArgument: () => '',
    });
    expect(items).toEqual([
      { kind: 'shell', id: expect.any(String), command: 'git status', end: 'exit 0', ok: true },
    ]);
  });
});

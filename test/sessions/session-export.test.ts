import { describe, expect, test } from 'vitest';
import {
  exportJson,
  exportMarkdown,
  parseJsonExport,
  SessionImportError,
} from '../../src/sessions/session-export.js';
import type { SessionEntry } from '../../src/sessions/session-format.js';
import { HEADER, message, record } from './fixtures.js';

const ENTRIES: SessionEntry[] = [
  message(1, 'user', 'What is in a.txt?'),
  message(2, 'assistant', '', {
    tool_calls: [{ function: { name: 'read_file', arguments: { path: 'a.txt' } } }],
  }),
  message(3, 'tool', 'line with ``` fence', {
    tool_name: 'read_file',
    tool_summary: 'read_file a.txt: 1 line.',
  }),
  message(4, 'assistant', 'It has one line.', { interrupted: true }),
  { type: 'compaction', record: record(4) },
  { type: 'compaction-failed', at: 'T', trigger: 'manual', reason: 'server down' },
  { type: 'setting', at: 'T', key: 'name', value: 'reading' },
];

describe('session export', () => {
  test('JSON export round-trips through the importer', () => {
    const parsed = parseJsonExport(exportJson(HEADER, ENTRIES));
    expect(parsed.header).toEqual(HEADER);
    expect(parsed.entries).toEqual(ENTRIES);
  });

  test('the importer names what is wrong', () => {
    expect(() => parseJsonExport('{')).toThrow(SessionImportError);
    expect(() => parseJsonExport('{"format":"other"}')).toThrow('not an ochat session export');
    const bad = JSON.stringify({ format: 'ochat-session', header: HEADER, entries: [{ type: 'message' }] });
    expect(() => parseJsonExport(bad)).toThrow('entry 1: a message line has no message');
  });

  test('Markdown shows every message, tool output fenced, marks and compactions', () => {
    const md = exportMarkdown(HEADER, ENTRIES);
    expect(md.startsWith('# reading\n')).toBe(true);
    expect(md).toContain('## System\n\nBe brief.');
    expect(md).toContain('## User\n\nWhat is in a.txt?');
    expect(md).toContain('- tool call: `read_file` {"path":"a.txt"}');
    expect(md).toContain(
      '## Tool: read_file\n\n_read_file a.txt: 1 line._\n\n````\nline with ``` fence\n````',
    );
    expect(md).toContain('## Assistant (interrupted)');
    expect(md).toContain('> **Compaction** (');
    expect(md).toContain('> **Compaction failed** (T): server down');
  });

  test('Markdown marks a reply /retry replaced and leaves the meter bookkeeping out', () => {
    const md = exportMarkdown(HEADER, [
      message(1, 'user', 'q'),
      message(2, 'assistant', 'old'),
      { type: 'replaced', at: 'T', ids: [2] },
      message(3, 'assistant', 'new'),
      { type: 'setting', at: 'T', key: 'meter', value: { charsPerToken: 3 } },
    ]);
    expect(md).toContain('## Assistant (replaced)\n\nold');
    expect(md).toContain('## Assistant\n\nnew');
    expect(md).not.toContain('meter');
  });

  test('Markdown says what a compaction cut from its summary, and the words cut', () => {
    const md = exportMarkdown(HEADER, [
      message(1, 'user', 'first'),
      { type: 'compaction', record: { ...record(1), cut: { text: 'yada yada', tokens: 3 } } },
    ]);
    expect(md).toContain(
      '> - read_file a.txt: 3 lines.\n>\n> _Summary cut: 3 tokens dropped._\n> Cut: yada yada\n',
    );
    expect(exportMarkdown(HEADER, [{ type: 'compaction', record: record(1) }])).not.toContain('Summary cut');
  });
});

import { describe, expect, it } from 'vitest';
import {
  buildSummarizerRequest,
  DEFAULT_SUMMARIZER_RULES,
  renderSliceLines,
} from '../../src/compaction/summarizer-prompt.js';
import type { Message } from '../../src/conversation/message.js';
import { buildTranscript } from '../conversation/fixtures.js';

describe('renderSliceLines', () => {
  it('renders one line per message with its transcript index', () => {
    const slice = buildTranscript([
      {
        user: 'Hello\n\n  world',
        steps: [
          {
            tools: [
              { name: 'read_file', output: 'big output', summary: 'read a.ts (10 lines)' },
              { name: 'run_command', output: 'ls output' },
            ],
          },
          { reply: 'Done.', thinking: 'secret reasoning' },
        ],
      },
    ]);
    const lines = renderSliceLines(slice, { maxMessageChars: 100, firstIndex: 5 });
    expect(lines).toEqual([
      '[5] user: Hello world',
      '[6] assistant: (tool calls: read_file, run_command)',
      '[7] tool: read_file: read a.ts (10 lines) — output: big output',
      '[8] tool: run_command was called. — output: ls output',
      '[9] assistant: Done.',
    ]);
    expect(lines.join('\n')).not.toContain('secret');
  });

  it('gives a tool result its summary line then the head of its output, capped like any message', () => {
    const slice = buildTranscript([
      {
        user: 'Read it',
        steps: [
          { tools: [{ name: 'read_file', output: 'KEY=FACT-k1\n\nrest '.repeat(20), summary: 'read .env' }] },
        ],
      },
    ]);
    const line = renderSliceLines(slice, { maxMessageChars: 30 })[2];
    expect(line).toMatch(
      /^\[2\] tool: read_file: read \.env — output: KEY=FACT-k1 rest KEY=FACT-k1 r… \[\+\d+ chars\]$/,
    );
  });

  it('caps long messages with a marker', () => {
    const slice: Message[] = [{ id: 1, turn: 0, role: 'user', content: 'a'.repeat(50), at: '' }];
    expect(renderSliceLines(slice, { maxMessageChars: 10 })).toEqual(['[0] user: aaaaaaaaaa… [+40 chars]']);
  });

  it('mentions images, interruptions, text beside tool calls, and empty messages', () => {
    const at = '';
    const slice: Message[] = [
      { id: 1, turn: 0, role: 'user', content: 'see', images: ['x', 'y'], at },
      { id: 2, turn: 0, role: 'assistant', content: 'Half a rep', interrupted: true, at },
      {
        id: 3,
        turn: 0,
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [{ function: { name: 'search', arguments: {} } }],
        at,
      },
      { id: 4, turn: 0, role: 'assistant', content: '  ', at },
    ];
    expect(renderSliceLines(slice, { maxMessageChars: 100 })).toEqual([
      '[0] user: see (2 images attached)',
      '[1] assistant: Half a rep (reply interrupted)',
      '[2] assistant: Let me look. (tool calls: search)',
      '[3] assistant: (empty)',
    ]);
  });
});

describe('buildSummarizerRequest', () => {
  const lines = ['[4] user: My name is Ana.', '[5] assistant: Hello Ana.'];

  it('puts the previous narrative first, then the lines, then the size limit', () => {
    const request = buildSummarizerRequest({
      previousNarrative: 'The user lives in Porto.',
      lines,
      maxChars: 1600,
    });
    expect(request.system).toBe(DEFAULT_SUMMARIZER_RULES);
    const { prompt } = request;
    expect(prompt.indexOf('The user lives in Porto.')).toBeGreaterThan(-1);
    expect(prompt.indexOf('The user lives in Porto.')).toBeLessThan(prompt.indexOf(lines[0]));
    expect(prompt.indexOf(lines[0])).toBeLessThan(prompt.indexOf(lines[1]));
    expect(prompt).toContain('at most 1600 characters');
    expect(prompt.endsWith('Output only the summary.')).toBe(true);
  });

  it('omits the previous-summary part when there is none, and adds the focus when given', () => {
    const { prompt } = buildSummarizerRequest({ lines, maxChars: 400, focus: ' the database schema ' });
    expect(prompt).not.toContain('<summary>');
    expect(prompt).toContain('Focus for this summary, from the user: the database schema');
  });

  it('replaces the default rules wholesale with configured ones', () => {
    const request = buildSummarizerRequest({ rules: 'Summarize tersely.', lines, maxChars: 400 });
    expect(request.system).toBe('Summarize tersely.');
  });

  it('has default rules that keep facts, commitments, questions, decisions, language, and forbid invention', () => {
    for (const needle of [
      'names',
      'numbers',
      'paths',
      'dates',
      'commitment',
      'open questions',
      'ecisions',
      'invent',
      'advice',
      'language',
    ]) {
      expect(DEFAULT_SUMMARIZER_RULES).toContain(needle);
    }
  });
});

describe('buildSummarizerRequest: blank and padded inputs', () => {
  const base = { lines: ['[0] user: hi'], maxChars: 400 };

  it('starts with the slice when there is no summary yet, or only whitespace', () => {
    for (const previousNarrative of [undefined, '', '  \n ']) {
      const { prompt } = buildSummarizerRequest({ ...base, previousNarrative });
      expect(prompt.startsWith('New messages to fold into the summary')).toBe(true);
      expect(prompt).not.toContain('<summary>');
    }
  });

  it('puts the previous summary, trimmed, first', () => {
    const { prompt } = buildSummarizerRequest({ ...base, previousNarrative: '  FACT-1 kept.  \n' });
    expect(prompt.startsWith('Existing summary of the conversation so far')).toBe(true);
    expect(prompt).toContain('<summary>\nFACT-1 kept.\n</summary>');
  });

  it('adds the focus trimmed, and leaves a blank focus out', () => {
    expect(buildSummarizerRequest({ ...base, focus: '  the budget  ' }).prompt).toContain(
      'Focus for this summary, from the user: the budget\n\n',
    );
    expect(buildSummarizerRequest({ ...base, focus: '   ' }).prompt).not.toContain('Focus');
  });

  it('uses configured rules unless they are blank', () => {
    expect(buildSummarizerRequest({ ...base, rules: 'Be terse.' }).system).toBe('Be terse.');
    expect(buildSummarizerRequest({ ...base, rules: '  ' }).system).toBe(DEFAULT_SUMMARIZER_RULES);
  });
});

describe('renderSliceLines: attachments', () => {
  it('says how many images a message carried', () => {
    const withImages = (n: number): Message => ({
      id: 1,
      turn: 1,
      role: 'user',
      content: 'look',
      at: '',
      images: Array(n).fill('aGk='),
    });
    expect(renderSliceLines([withImages(1)], { maxMessageChars: 100 })).toEqual([
      '[0] user: look (1 image attached)',
    ]);
    expect(renderSliceLines([withImages(2)], { maxMessageChars: 100 })).toEqual([
      '[0] user: look (2 images attached)',
    ]);
  });

  it('leaves out replies /retry replaced, keeping the transcript indices of the rest', () => {
    const slice = buildTranscript([
      { user: 'Q', steps: [{ reply: 'Rejected answer.' }] },
      { user: 'R', steps: [{ reply: 'Kept.' }] },
    ]).map((m) => (m.content === 'Rejected answer.' ? { ...m, replaced: true } : m));
    expect(renderSliceLines(slice, { maxMessageChars: 100 })).toEqual([
      '[0] user: Q',
      '[2] user: R',
      '[3] assistant: Kept.',
    ]);
  });

  it('names the images the user attached, since the summarizer reads text only', () => {
    const attached: Message = {
      id: 1,
      turn: 1,
      role: 'user',
      content: 'what is @a.png and @b.jpg',
      at: '',
      images: ['aGk=', 'aGk='],
      typed: 'what is @a.png and @b.jpg',
      attachments: [
        { path: 'a.png', kind: 'image', size: 3 },
        { path: 'b.jpg', kind: 'image', size: 3 },
      ],
    };
    expect(renderSliceLines([attached], { maxMessageChars: 100 })).toEqual([
      '[0] user: what is @a.png and @b.jpg [image: a.png] [image: b.jpg]',
    ]);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildModelView, toWireMessage } from '../../src/compaction/model-view.js';
import { renderSummarySection } from '../../src/compaction/summary.js';
import type { CompactionRecord } from '../../src/conversation/compaction-record.js';
import type { Message } from '../../src/conversation/message.js';
import { buildTranscript, transcriptArb, turnStartIndices } from '../conversation/fixtures.js';

const transcript = buildTranscript([
  {
    user: 'read a.ts',
    steps: [{ tools: [{ name: 'read_file', output: 'line1\nline2', summary: 'read a.ts' }] }],
  },
  { user: 'thanks', steps: [{ reply: 'You are welcome.', thinking: 'be polite' }] },
]);

function record(upto: number): CompactionRecord {
  return {
    upto,
    narrative: 'The user asked to read a.ts.',
    toolEntries: ['read_file: read a.ts'],
    model: 'qwen3',
    at: '2026-01-01T00:00:00.000Z',
    tokensBefore: 100,
    tokensAfter: 50,
  };
}

describe('buildModelView', () => {
  it('sends the system prompt then the transcript, thinking stripped, tool results as tool messages', () => {
    expect(buildModelView({ system: 'Be brief.', transcript })).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'read a.ts' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { index: 0, name: 'read_file', arguments: { n: 0 } } }],
      },
      { role: 'tool', tool_name: 'read_file', content: 'line1\nline2' },
      { role: 'user', content: 'thanks' },
      { role: 'assistant', content: 'You are welcome.' },
    ]);
  });

  it('folds the summary into the one system message and sends only the tail', () => {
    const view = buildModelView({ system: 'Be brief.', record: record(3), transcript });
    expect(view).toEqual([
      { role: 'system', content: `Be brief.\n\n${renderSummarySection(record(3))}` },
      { role: 'user', content: 'thanks' },
      { role: 'assistant', content: 'You are welcome.' },
    ]);
    expect(view[0].content).toContain('The user asked to read a.ts.');
    expect(view[0].content).toContain('- read_file: read a.ts');
  });

  it('makes a system message of the summary alone when there is no system prompt', () => {
    const view = buildModelView({ record: record(3), transcript });
    expect(view[0]).toEqual({ role: 'system', content: renderSummarySection(record(3)) });
    expect(view).toHaveLength(3);
  });

  it('sends no system message without a system prompt or summary', () => {
    expect(buildModelView({ system: '  ', transcript })[0].role).toBe('user');
  });

  it('passes tool content through toolContent', () => {
    const view = buildModelView({ transcript, toolContent: (m) => `capped:${m.content.length}` });
    expect(view[2]).toEqual({ role: 'tool', tool_name: 'read_file', content: 'capped:11' });
  });

  it('never starts the tail with an orphan tool result', () => {
    const view = buildModelView({ record: record(2), transcript });
    expect(view.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
  });

  it('folds a stray system message of the transcript into the one system message', () => {
    const stray: Message = { id: 99, turn: 1, role: 'system', content: 'Reply in French.', at: '' };
    const view = buildModelView({ system: 'Be brief.', transcript: [...transcript, stray] });
    expect(view.filter((m) => m.role === 'system')).toEqual([
      { role: 'system', content: 'Be brief.\n\nReply in French.' },
    ]);
  });

  it('keeps every chat template happy for any transcript and boundary', () => {
    fc.assert(
      fc.property(transcriptArb, fc.nat(), fc.boolean(), (messages, pick, withSystem) => {
        const starts = turnStartIndices(messages);
        const upto = starts[pick % starts.length];
        const view = buildModelView({
          system: withSystem ? 'sys' : undefined,
          record: upto > 0 ? record(upto) : undefined,
          transcript: messages,
        });
        expect(view.filter((m) => m.role === 'system').length).toBeLessThanOrEqual(1);
        view.forEach((m, i) => {
          if (m.role === 'system') expect(i).toBe(0);
          if (m.role === 'tool') {
            const before = view[i - 1];
            expect(before.role === 'tool' || (before.role === 'assistant' && !!before.tool_calls)).toBe(true);
          }
          expect(m).not.toHaveProperty('thinking');
        });
        expect(view.length - (view[0]?.role === 'system' ? 1 : 0)).toBe(messages.length - upto);
      }),
    );
  });
});

/** A transcript message of turn 1; `interrupted` marks a reply cut short. */
const message = (id: number, role: Message['role'], content: string, interrupted?: boolean): Message => ({
  id,
  turn: 1,
  role,
  content,
  at: 'x',
  ...(interrupted ? { interrupted } : {}),
});

describe('a reply cut short by a failure and retried', () => {
  it('is left out while it is the last message (the retry asks again) and once its retry follows', () => {
    const failed = [message(1, 'user', 'hi'), message(2, 'assistant', 'Hal', true)];
    expect(buildModelView({ transcript: failed })).toEqual([{ role: 'user', content: 'hi' }]);
    const retried = [...failed, message(3, 'assistant', 'Hello!'), message(4, 'user', 'and?')];
    expect(buildModelView({ transcript: retried }).map((m) => m.content)).toEqual(['hi', 'Hello!', 'and?']);
  });

  it('is kept when the user went on instead (the model should know what it said)', () => {
    const cut = [message(1, 'user', 'hi'), message(2, 'assistant', 'Hal', true), message(3, 'user', 'go on')];
    expect(buildModelView({ transcript: cut }).map((m) => m.content)).toEqual(['hi', 'Hal', 'go on']);
  });
});

describe('the chat request as far as a boundary (end), as the summarizer continues it', () => {
  it('is the start of the whole view: a reply cut short stays in when the user went on after the boundary', () => {
    const cut = [message(1, 'user', 'hi'), message(2, 'assistant', 'Hal', true), message(3, 'user', 'go on')];
    const whole = buildModelView({ system: 'S', transcript: cut });
    expect(buildModelView({ system: 'S', transcript: cut, end: 2 })).toEqual(whole.slice(0, 3));
    // Cut off from what follows, it would read as a reply being retried, and be left out.
    expect(buildModelView({ system: 'S', transcript: cut.slice(0, 2) })).toHaveLength(2);
  });

  it('sends a tool output shortened again as the request did, the rest as they are', () => {
    const tool = transcript[2];
    const view = buildModelView({ transcript, end: 3, shortened: new Map([[tool, 3]]) });
    expect(view.at(-1)?.content).toMatch(
      /^lin\n… \[output shortened to fit the context window, 8 chars omitted; summary: /,
    );
    expect(buildModelView({ transcript, end: 3 }).at(-1)?.content).toBe('line1\nline2');
  });

  it("with a fit, keeps an older turn's output shortened as sent (never whole) and fits the newest turn afresh", () => {
    const big = 'x'.repeat(4000);
    const turns = buildTranscript([
      { user: 'read it', steps: [{ tools: [{ name: 'read_file', output: big, summary: 'read a.ts' }] }] },
      { user: 'and this', steps: [{ tools: [{ name: 'read_file', output: big, summary: 'read b.ts' }] }] },
    ]);
    const [older, newer] = turns.filter((m) => m.role === 'tool');
    const fit = { numCtx: 1200, reserve: 200, charsPerToken: 4 };
    const view = buildModelView({
      transcript: turns,
      fit,
      shortened: new Map([
        [older, 100],
        [newer, 50],
      ]),
    });
    const [olderSent, newerSent] = view.filter((m) => m.role === 'tool').map((m) => m.content);
    // As the request sent it: 100 chars of head, not the 4,000 the room would take now.
    expect(olderSent).toMatch(
      /^x{100}\n… \[output shortened to fit the context window, 3,?900 chars omitted/,
    );
    // The newest turn's output: as much as fits now, shortened once (one note), not 50 chars.
    expect(newerSent.split('[output shortened').length).toBe(2);
    expect(newerSent.indexOf('\n…')).toBeGreaterThan(50);
  });
});

describe('toWireMessage', () => {
  it('keeps images of user messages and drops transcript-only fields', () => {
    const message: Message = {
      id: 1,
      turn: 0,
      role: 'user',
      content: 'look',
      images: ['aGk='],
      at: 'x',
      interrupted: true,
    };
    expect(toWireMessage(message)).toEqual({ role: 'user', content: 'look', images: ['aGk='] });
  });
});

describe('buildModelView: what each wire message carries', () => {
  const msg = (m: Partial<Message> & Pick<Message, 'role' | 'content'>): Message => ({
    id: 1,
    turn: 1,
    at: '',
    ...m,
  });

  it('drops a blank stray system message instead of adding an empty section', () => {
    const view = buildModelView({
      system: 'Be brief.',
      transcript: [msg({ role: 'system', content: '  \n' }), msg({ role: 'user', content: 'hi' })],
    });
    expect(view).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
    ]);
  });

  it('sends only the fields a message has: no empty tool_calls, images or tool_name', () => {
    expect(toWireMessage(msg({ role: 'user', content: 'a', images: [] }))).toEqual({
      role: 'user',
      content: 'a',
    });
    expect(toWireMessage(msg({ role: 'assistant', content: 'b', tool_calls: [] }))).toEqual({
      role: 'assistant',
      content: 'b',
    });
    expect(toWireMessage(msg({ role: 'tool', content: 'out' }))).toEqual({ role: 'tool', content: 'out' });
    expect(toWireMessage(msg({ role: 'user', content: 'c', images: ['aGk='] }))).toEqual({
      role: 'user',
      content: 'c',
      images: ['aGk='],
    });
  });

  it('keeps a user message that precedes an assistant reply, whatever its flags', () => {
    const view = buildModelView({
      transcript: [
        msg({ role: 'user', content: 'q', interrupted: true } as Partial<Message> &
          Pick<Message, 'role' | 'content'>),
        msg({ role: 'assistant', content: 'a' }),
      ],
    });
    expect(view.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('leaves out messages /retry replaced: the new reply stands in their place', () => {
    const replaced = transcript.map((m, i) => (i === 1 || i === 2 ? { ...m, replaced: true } : m));
    const view = buildModelView({ transcript: replaced });
    expect(view.map((m) => [m.role, m.content])).toEqual([
      ['user', 'read a.ts'],
      ['user', 'thanks'],
      ['assistant', 'You are welcome.'],
    ]);
  });
});

describe('buildModelView: a !command run', () => {
  const at = '2026-01-01T00:00:00.000Z';
  const shell = { command: 'ls', cwd: '/w', end: 'exit 0', ok: true };
  const run = (id: number, content: string): Message => ({ id, turn: id, role: 'user', content, shell, at });
  const user = (id: number, content: string): Message => ({ id, turn: id, role: 'user', content, at });
  const reply = (id: number, content: string): Message => ({
    id,
    turn: id - 1,
    role: 'assistant',
    content,
    at,
  });

  it('goes with the next user message as one user message, runs in order', () => {
    const view = buildModelView({
      transcript: [user(1, 'hi'), reply(2, 'Hello.'), run(3, 'RUN-1'), run(4, 'RUN-2'), user(5, 'why?')],
    });
    expect(view).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Hello.' },
      { role: 'user', content: 'RUN-1\n\nRUN-2\n\nwhy?' },
    ]);
  });

  it('joins an unanswered message before it too, and is sent alone while nothing follows', () => {
    expect(buildModelView({ transcript: [user(1, 'failed'), run(2, 'RUN')] })).toEqual([
      { role: 'user', content: 'failed\n\nRUN' },
    ]);
    expect(buildModelView({ transcript: [run(1, 'RUN')] })).toEqual([{ role: 'user', content: 'RUN' }]);
  });

  it('leaves two plain user messages as they are', () => {
    expect(buildModelView({ transcript: [user(1, 'a'), user(2, 'b')] })).toHaveLength(2);
  });
});

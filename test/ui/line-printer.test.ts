import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DisplayItem } from '../../src/chat/state/display-items.js';
import { type ChatViewState, initialViewState } from '../../src/chat/state/view-state.js';
import { LinePrinter } from '../../src/ui/line-printer.js';

afterEach(() => {
  vi.useRealTimers();
});

function printer() {
  let out = '';
  const p = new LinePrinter((text) => {
    out += text;
  });
  return { p, out: () => out };
}

const state = (patch: Partial<ChatViewState>): ChatViewState => ({ ...initialViewState('m'), ...patch });
const banner: DisplayItem = { kind: 'banner', id: 'b', model: 'm', host: 'http://h:1', numCtx: 8192 };

describe('LinePrinter', () => {
  it('prints a streamed reply once: its items are not printed again', () => {
    const { p, out } = printer();
    const items: DisplayItem[] = [banner];
    p.update(state({ items, busy: 'connecting' }));
    p.typedLine('hi');
    items.push({ kind: 'user', id: 'u', text: 'hi' });
    p.update(state({ items: [...items], busy: 'waiting' }));
    p.delta({ thinking: 'Hmm.' });
    p.delta({ content: 'Hello ' });
    p.delta({ content: 'world.' });
    p.update(
      state({
        items: [
          ...items,
          { kind: 'thinking', id: 't', text: 'Hmm.' },
          { kind: 'assistant', id: 'a', markdown: 'Hello world.' },
        ],
        busy: 'waiting',
      }),
    );
    expect(out()).toBe(
      'ochat · m · http://h:1 · num_ctx 8192\nThinking...\nHmm.\n...done thinking.\n\nHello world.',
    );
  });

  it('prints the prompt once ochat has settled, not between the steps of a turn', () => {
    vi.useFakeTimers();
    const { p, out } = printer();
    p.update(state({ items: [banner] }));
    p.update(state({ items: [banner], busy: 'running a tool' }));
    vi.advanceTimersByTime(100);
    expect(out()).not.toContain('>>>');
    p.update(state({ items: [banner] }));
    vi.advanceTimersByTime(100);
    expect(out()).toMatch(/num_ctx 8192\n\n>>> $/);
  });

  it('prints the prompt again under a notice that came after it (an MCP server up late)', () => {
    vi.useFakeTimers();
    const { p, out } = printer();
    p.update(state({ items: [banner] }));
    vi.advanceTimersByTime(100);
    expect(out()).toMatch(/>>> $/);
    const notice: DisplayItem = { kind: 'notice', id: 'n', level: 'info', text: 'MCP: late.' };
    p.update(state({ items: [banner, notice] }));
    vi.advanceTimersByTime(100);
    expect(out()).toMatch(/>>> \nℹ MCP: late\.\n\n>>> $/);
  });

  it('prints items from elsewhere (a resumed session) in full, with the typed-line marker for messages', () => {
    const { p, out } = printer();
    p.update(
      state({
        items: [
          banner,
          { kind: 'user', id: 'u', text: 'earlier question' },
          { kind: 'assistant', id: 'a', markdown: 'Earlier answer.', interrupted: true },
          { kind: 'notice', id: 'n', level: 'warning', text: 'careful' },
        ],
        busy: 'x',
      }),
    );
    expect(out()).toContain('>>> earlier question\n\nEarlier answer.\n[interrupted]\n⚠ careful\n');
  });

  it('shows what went with a typed message (@file), which the echoed line does not', () => {
    const { p, out } = printer();
    p.update(state({ items: [banner], busy: 'x' }));
    p.typedLine('read @notes.md');
    p.update(
      state({
        items: [
          banner,
          {
            kind: 'user',
            id: 'u',
            text: 'read @notes.md',
            attachments: [{ path: 'notes.md', kind: 'text', size: 2100 }],
          },
        ],
        busy: 'x',
      }),
    );
    expect(out()).not.toContain('>>> read');
    expect(out()).toMatch(/📎 notes\.md \(2\.1 kB\)\n$/);
  });

  it('asks for a tool instruction with what works on a dumb terminal (Esc does not)', () => {
    const { p, out } = printer();
    p.update(
      state({
        items: [banner],
        dialog: { kind: 'tool-instruction', question: 'Type an instruction', choices: 'Esc/Ctrl+C: decline' },
      }),
    );
    expect(out()).toContain('? Type an instruction (an empty line declines) ');
  });

  it('never lets an escape sequence through: not from the model, nor from a notice', () => {
    const { p, out } = printer();
    p.update(
      state({
        items: [banner, { kind: 'notice', id: 'n', level: 'error', text: 'bad \x1b[2Jthing' }],
        busy: 'x',
      }),
    );
    p.delta({ content: 'A \x1b[31mred\x1b[0m \x1b[1' });
    p.delta({ content: 'Atext' });
    p.update(
      state({
        items: [banner],
        busy: undefined,
        dialog: { kind: 'confirm-tool', question: 'Run \x1b[Hx?', choices: 'y/n' },
      }),
    );
    expect(out()).not.toMatch(/\x1b/);
    expect(out()).toContain('A red text');
    expect(out()).toContain('? Run ␛[Hx? (y/n) ');
  });
});

/**
 * The controller with a session store: `/retry`, `/tools` and the context meter are recorded as
 * they happen and put back by a resume, so the resumed chat sends and decides as the original would.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelInfo } from '../../src/backend/interfaces.js';
import { ChatController } from '../../src/chat/chat-controller.js';
import type { ChatParts } from '../../src/chat/chat-parts.js';
import { SessionStore } from '../../src/sessions/session-store.js';
import { testControllerDeps } from '../support/controller-deps.js';
import { FakeBackend } from '../support/fake-backend.js';
import { waitUntil } from '../support/wait-until.js';

const dirs: string[] = [];
/** The questions of the dialogs `start` answered. */
const asked: string[] = [];
const controllers: ChatController[] = [];
afterEach(() => {
  for (const controller of controllers.splice(0)) controller.exit();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function place(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ochat-session-flow-'));
  dirs.push(dir);
  return dir;
}

const TOOL_MODEL: Record<string, Partial<ModelInfo>> = {
  'fake:latest': { capabilities: ['completion', 'tools', 'thinking'] },
};

async function start(
  dir: string,
  backend: FakeBackend,
  resume?: true,
  more: { sessions?: SessionStore; interactive?: boolean; answer?: string } = {},
): Promise<ChatController> {
  const controller = new ChatController(
    testControllerDeps(backend, dir, {
      flags: { model: 'fake:latest' },
      sessions: more.sessions ?? new SessionStore(join(dir, 'sessions')),
      resume,
      interactive: more.interactive,
    }),
  );
  controllers.push(controller);
  const started = controller.start();
  if (more.answer) {
    const question = () => controller.store.get().dialog?.question;
    await waitUntil('the question at start-up', () => question() !== undefined, {
      onChange: controller.store.subscribe,
    });
    asked.push(question() ?? '');
    controller.answerDialog(more.answer);
  }
  await started;
  return controller;
}

async function say(controller: ChatController, text: string): Promise<void> {
  controller.submit(text);
  await controller.idle();
}

function quit(controller: ChatController): void {
  controllers.splice(controllers.indexOf(controller), 1);
  controller.exit();
}

/** The session file's lines, parsed. */
function sessionLines(dir: string): Record<string, unknown>[] {
  const files = readdirSync(join(dir, 'sessions')).filter((f) => f.endsWith('.jsonl'));
  expect(files).toHaveLength(1);
  return readFileSync(join(dir, 'sessions', files[0]), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

const wire = (messages: { role: string; content: string }[]) => messages.map((m) => [m.role, m.content]);

describe('/retry', () => {
  it('asks again without the old reply, keeps it marked replaced, and records that', async () => {
    const dir = place();
    const backend = new FakeBackend(TOOL_MODEL).enqueue(
      { content: 'First answer.' },
      { content: 'Second answer.' },
      { content: 'More.' },
    );
    const chat = await start(dir, backend);
    await say(chat, 'hello');
    await say(chat, '/retry');
    expect(wire(backend.requests[1].messages)).toEqual([['user', 'hello']]);
    expect(chat.transcript.map((m) => [m.content, m.replaced ?? false])).toEqual([
      ['hello', false],
      ['First answer.', true],
      ['Second answer.', false],
    ]);
    const shown = chat.store.get().items.map((item) => ('text' in item ? item.text : ''));
    expect(shown.join('\n')).toContain(
      'Regenerating the reply to "hello"; the old one stays in /history, marked replaced.',
    );
    await say(chat, 'more');
    expect(wire(backend.requests[2].messages)).toEqual([
      ['user', 'hello'],
      ['assistant', 'Second answer.'],
      ['user', 'more'],
    ]);
    const firstId = chat.transcript[1].id;
    expect(sessionLines(dir)).toContainEqual(expect.objectContaining({ type: 'replaced', ids: [firstId] }));
  });

  it('replaces a whole turn with tool calls: the new request ends with the user message', async () => {
    const dir = place();
    const backend = new FakeBackend(TOOL_MODEL).enqueue(
      { toolCalls: [{ function: { name: 'get_time', arguments: {} } }] },
      { content: 'It is late.' },
      { content: 'Again: late.' },
    );
    const chat = await start(dir, backend);
    await say(chat, 'time?');
    expect(chat.transcript.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    await say(chat, '/retry');
    expect(wire(backend.requests[2].messages)).toEqual([['user', 'time?']]);
    expect(chat.transcript.filter((m) => m.replaced).map((m) => m.role)).toEqual([
      'assistant',
      'tool',
      'assistant',
    ]);
  });

  it('works after a resume: the resumed view leaves the replaced reply out, and /retry replaces the resumed one', async () => {
    const dir = place();
    const first = await start(
      dir,
      new FakeBackend(TOOL_MODEL).enqueue({ content: 'First answer.' }, { content: 'Second answer.' }),
    );
    await say(first, 'hello');
    await say(first, '/retry');
    quit(first);

    const backend = new FakeBackend(TOOL_MODEL).enqueue({ content: 'More.' }, { content: 'More, again.' });
    const second = await start(dir, backend, true);
    expect(second.transcript.map((m) => m.replaced ?? false)).toEqual([false, true, false]);
    await say(second, 'more');
    expect(wire(backend.requests[0].messages)).toEqual([
      ['user', 'hello'],
      ['assistant', 'Second answer.'],
      ['user', 'more'],
    ]);
    await say(second, '/retry');
    expect(backend.requests[1].messages).toEqual(backend.requests[0].messages);
    expect(second.transcript.at(-1)?.content).toBe('More, again.');
    expect(second.transcript.filter((m) => m.replaced).map((m) => m.content)).toEqual([
      'First answer.',
      'More.',
    ]);
  });

  it('says so when there is nothing to retry', async () => {
    const chat = await start(place(), new FakeBackend(TOOL_MODEL));
    await say(chat, '/retry');
    expect(JSON.stringify(chat.store.get().items)).toContain('Nothing to retry');
  });
});

describe('/tools on|off in a session', () => {
  it('is recorded, and a resume sends the same tool list', async () => {
    const dir = place();
    const backend = new FakeBackend(TOOL_MODEL).enqueue({ content: 'ok' }, { content: 'ok' });
    const first = await start(dir, backend);
    await say(first, '/tools off run_command');
    await say(first, 'hi');
    await say(first, 'probe');
    const names = (request: (typeof backend.requests)[number]) =>
      (request.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
    expect(names(backend.requests[1])).not.toContain('run_command');
    expect(names(backend.requests[1])).toContain('read_file');
    quit(first);

    const resumedBackend = new FakeBackend(TOOL_MODEL).enqueue({ content: 'ok' });
    const second = await start(dir, resumedBackend, true);
    expect(second.host.tools.list().find((t) => t.name === 'run_command')?.enabled).toBe(false);
    // The same probe again: the request after the resume carries the same tools.
    second.submit('probe');
    await second.idle();
    expect(resumedBackend.requests[0].tools).toEqual(backend.requests[1].tools);
  });
});

describe('/set keep_alive in a session', () => {
  it('is recorded, and a resume sends it; so is a return to the server default', async () => {
    const dir = place();
    const backend = new FakeBackend().enqueue({ content: 'ok' }, { content: 'ok' });
    const first = await start(dir, backend);
    await say(first, '/set keep_alive 2h');
    await say(first, 'hi');
    expect(backend.requests[0].keep_alive).toBe('2h');
    quit(first);

    const resumedBackend = new FakeBackend().enqueue({ content: 'ok' });
    const second = await start(dir, resumedBackend, true);
    await say(second, 'again');
    expect(resumedBackend.requests[0].keep_alive).toBe('2h');
    await say(second, '/set keep_alive default');
    quit(second);

    const thirdBackend = new FakeBackend().enqueue({ content: 'ok' });
    const third = await start(dir, thirdBackend, true);
    await say(third, 'once more');
    expect(thirdBackend.requests[0]).not.toHaveProperty('keep_alive');
  });
});

describe('a refused /set num_ctx in a session', () => {
  it('is not shown as set nor saved: a resume opens the window the chat had', async () => {
    const dir = place();
    const backend = new FakeBackend().enqueue({ content: 'ok' });
    const first = await start(dir, backend);
    await say(first, 'hi');
    const saved = sessionLines(dir);
    await say(first, '/set num_ctx 100');
    const texts = first.store.get().items.flatMap((i) => (i.kind === 'notice' ? [i.text] : []));
    expect(texts.at(-1)).toMatch(/^num_ctx 100 is too small: .* num_ctx stays 8192\.$/);
    expect(texts.some((t) => t.startsWith('num_ctx ='))).toBe(false);
    expect(sessionLines(dir)).toEqual(saved);
    quit(first);

    const resumedBackend = new FakeBackend().enqueue({ content: 'ok' });
    const second = await start(dir, resumedBackend, true);
    await say(second, 'again');
    expect(resumedBackend.requests[0].options?.num_ctx).toBe(8192);
  });
});

describe('the context meter in a session', () => {
  it('is put back by a resume: the server counts, not an estimate, so `used` is what the original had', async () => {
    const dir = place();
    // A thinking reply: its eval count (thinking included) is far more than its text suggests.
    const backend = new FakeBackend(TOOL_MODEL).enqueue({
      content: 'Short.',
      thinking: 'hmm',
      promptEvalCount: 3000,
      evalCount: 2500,
    });
    const first = await start(dir, backend);
    await say(first, 'hello');
    const used = first.store.get().used;
    expect(used).toBe(5500);
    quit(first);

    const second = await start(dir, new FakeBackend(TOOL_MODEL), true);
    expect(second.store.get().used).toBe(used);
    const meter = sessionLines(dir).filter((l) => l.type === 'setting' && l.key === 'meter');
    expect(meter.at(-1)).toMatchObject({ value: { anchor: { tokens: 5500, transcriptLength: 2 } } });
  });

  it("keeps what a count showed of the server's template: tool definitions it does not render stay uncounted after a resume", async () => {
    const dir = place();
    const requestsOf = (controller: ChatController) =>
      (controller as unknown as { parts: ChatParts }).parts.requests;
    // llama-server's chatml: a count of the whole prompt with no room in it for the definitions sent.
    const backend = new FakeBackend(TOOL_MODEL).enqueue({
      content: 'Short.',
      promptEvalCount: 12,
      evalCount: 3,
      wholePrompt: true,
    });
    const first = await start(dir, backend);
    await say(first, 'hello');
    expect(backend.requests[0].tools?.length).toBeGreaterThan(0);
    expect(requestsOf(first).meter.rendersTools).toBe(false);
    const before = requestsOf(first).chatContinuation(2);
    expect(before.toolTokens).toBe(0);
    expect(before.counted).toBeGreaterThan(0);
    quit(first);

    const second = await start(dir, new FakeBackend(TOOL_MODEL), true);
    expect(requestsOf(second).meter.rendersTools).toBe(false);
    const after = requestsOf(second).chatContinuation(2);
    expect(after.toolTokens).toBe(0);
    expect(after.counted).toBe(before.counted);
  });

  it('a change that invalidates the server count (/tools off) is recorded too', async () => {
    const dir = place();
    const backend = new FakeBackend(TOOL_MODEL).enqueue({
      content: 'Short.',
      promptEvalCount: 3000,
      evalCount: 2500,
    });
    const first = await start(dir, backend);
    await say(first, 'hello');
    await say(first, '/tools off run_command');
    const used = first.store.get().used;
    expect(used).toBeLessThan(5500);
    quit(first);
    const second = await start(dir, new FakeBackend(TOOL_MODEL), true);
    expect(second.store.get().used).toBe(used);
  });
});

describe('a session another ochat holds', () => {
  /** Stores of two processes: every pid counts as alive, so the first one's lock holds. */
  const storeOf = (dir: string, pid: number) => new SessionStore(join(dir, 'sessions'), pid, () => true);

  it('asks; "y" continues a copy that is written to, the held file untouched', async () => {
    const dir = place();
    const first = await start(dir, new FakeBackend().enqueue({ content: 'One.' }), undefined, {
      sessions: storeOf(dir, 111),
    });
    await say(first, 'hello');
    const held = readdirSync(join(dir, 'sessions')).find((f) => f.endsWith('.jsonl'))!;
    const heldText = readFileSync(join(dir, 'sessions', held), 'utf8');

    const backend = new FakeBackend().enqueue({ content: 'Two.' });
    const second = await start(dir, backend, true, { sessions: storeOf(dir, 222), answer: 'y' });
    expect(asked.at(-1)).toMatch(
      /^Session \S+ is open in another ochat \(pid 111\)\. Continue it in a new session \(y\), or open it read-only \(n\)\?$/,
    );
    const text = JSON.stringify(second.store.get().items);
    expect(text).toContain('Continuing in new session');
    expect(text).not.toContain('Read-only');
    await say(second, 'again');
    expect(wire(backend.requests[0].messages)).toEqual([
      ['user', 'hello'],
      ['assistant', 'One.'],
      ['user', 'again'],
    ]);
    expect(readFileSync(join(dir, 'sessions', held), 'utf8')).toBe(heldText);
    const files = readdirSync(join(dir, 'sessions')).filter((f) => f.endsWith('.jsonl'));
    expect(files).toHaveLength(2);
    const copy = files.find((f) => f !== held)!;
    expect(readFileSync(join(dir, 'sessions', copy), 'utf8')).toContain('"again"');
  });

  it('"n", or nobody to ask, opens it read-only', async () => {
    const dir = place();
    const first = await start(dir, new FakeBackend().enqueue({ content: 'One.' }), undefined, {
      sessions: storeOf(dir, 111),
    });
    await say(first, 'hello');
    for (const more of [{ answer: 'n' }, { interactive: false }]) {
      const second = await start(dir, new FakeBackend(), true, { sessions: storeOf(dir, 222), ...more });
      expect(JSON.stringify(second.store.get().items)).toContain(
        'Read-only: another ochat (pid 111) has it open',
      );
      quit(second);
    }
    expect(readdirSync(join(dir, 'sessions')).filter((f) => f.endsWith('.jsonl'))).toHaveLength(1);
  });
});

describe('automatic compaction paused by a failure', () => {
  it('stays paused after a resume, so the resumed chat does not compact where the original would not', async () => {
    const dir = place();
    const long = `${'a long question '.repeat(800)}?`;
    const backend = new FakeBackend().enqueue(
      { content: 'First.' },
      // The server's count puts the chat over the threshold: automatic compaction runs, and fails.
      { content: 'Second.', promptEvalCount: 7000, evalCount: 10 },
      { fail: 'http', message: 'summarizer down' },
    );
    const first = await start(dir, backend, undefined, { interactive: false });
    await say(first, long);
    await say(first, 'next');
    expect(backend.requests).toHaveLength(3);
    expect(first.store.get().autoCompactPaused).toBe(true);
    quit(first);

    const resumed = new FakeBackend().enqueue({ content: 'Third.' });
    const second = await start(dir, resumed, true, { interactive: false });
    expect(second.store.get().autoCompactPaused).toBe(true);
    await say(second, 'more');
    // Still over the threshold, but paused: no summarizer request, just the chat.
    expect(resumed.requests).toHaveLength(1);
    expect(resumed.requests[0].messages.at(-1)).toEqual({ role: 'user', content: 'more' });
    const lines = sessionLines(dir).filter((l) => l.key === 'auto_compaction_paused');
    expect(lines.map((l) => l.value)).toEqual([true]);
  });
});

/** The controller's intents against a scripted backend: submit, retry, commands, accessors. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelInfo } from '../../src/backend/interfaces.js';
import { ChatController } from '../../src/chat/chat-controller.js';
import { BUILTIN_TOOLS, createToolRegistry } from '../../src/tools/registry.js';
import { PNG_BYTES } from '../attachments/fixtures.js';
import { testControllerDeps } from '../support/controller-deps.js';
import { FakeBackend } from '../support/fake-backend.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(
  backend = new FakeBackend(),
  interactive = true,
): Promise<{ controller: ChatController; backend: FakeBackend }> {
  const dir = mkdtempSync(join(tmpdir(), 'ochat-controller-'));
  dirs.push(dir);
  const controller = new ChatController(
    testControllerDeps(backend, dir, { flags: { model: 'fake:latest' }, interactive }),
  );
  await controller.start();
  return { controller, backend };
}

async function say(controller: ChatController, text: string): Promise<void> {
  controller.submit(text);
  await controller.idle();
}

describe('ChatController', () => {
  it('connects to the backend it is given and shows its host in the banner', async () => {
    const { controller } = await start();
    expect(controller.store.get().items[0]).toMatchObject({
      kind: 'banner',
      model: 'fake:latest',
      host: 'http://fake-backend:11434',
      numCtx: 8192,
    });
    expect(controller.host.model.numCtx).toBe(8192);
  });

  it('sends a message and exposes the transcript read-only', async () => {
    const { controller, backend } = await start();
    backend.enqueue({ content: 'Hi!' });
    await say(controller, 'hello');
    expect(controller.transcript.map((m) => [m.role, m.content])).toEqual([
      ['user', 'hello'],
      ['assistant', 'Hi!'],
    ]);
    expect(controller.records).toEqual([]);
  });

  it('retries a failed turn on an empty Enter, and not after /clear', async () => {
    const { controller, backend } = await start();
    backend.enqueue({ fail: 'http', message: 'boom' }, { content: 'Recovered.' });
    await say(controller, 'hello');
    controller.retry();
    await controller.idle();
    expect(backend.requests).toHaveLength(2);
    expect(controller.transcript.at(-1)?.content).toBe('Recovered.');

    backend.enqueue({ fail: 'http', message: 'boom again' });
    await say(controller, 'next');
    await say(controller, '/clear');
    controller.retry();
    await controller.idle();
    expect(backend.requests).toHaveLength(3);
  });

  it('sends /set options, the system prompt and the thinking setting with the next request', async () => {
    const backend = new FakeBackend({ 'fake:latest': { capabilities: ['completion', 'thinking'] } });
    const { controller } = await start(backend);
    controller.host.options.set('temperature', 0.2);
    controller.host.model.setSystem('Be brief.');
    controller.host.model.setThink('high');
    expect(controller.host.options.values).toEqual({ temperature: 0.2 });
    expect(controller.host.model).toMatchObject({ system: 'Be brief.', think: 'high' });
    expect(controller.host.model.supportsThinking).toBe(true);
    backend.enqueue({ content: 'ok' });
    await say(controller, 'hi');
    expect(backend.requests[0]).toMatchObject({
      options: { temperature: 0.2, num_ctx: 8192 },
      think: 'high',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
    });
  });

  it('/set num_ctx opens a new window, capped to what the model was trained on', async () => {
    const backend = new FakeBackend({ 'fake:latest': { trainedContext: 16384 } });
    const { controller } = await start(backend);
    await say(controller, '/set num_ctx 32768');
    expect(controller.host.model.numCtx).toBe(16384);
    backend.enqueue({ content: 'ok' });
    await say(controller, 'hi');
    expect(backend.requests[0].options).toMatchObject({ num_ctx: 16384 });
  });
});

describe('ChatController: @path attachments', () => {
  async function startIn(files: Record<string, Uint8Array | string>, info: Partial<ModelInfo>) {
    const backend = new FakeBackend({ 'eye:latest': info });
    const dir = mkdtempSync(join(tmpdir(), 'ochat-controller-'));
    dirs.push(dir);
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    const controller = new ChatController(
      testControllerDeps(backend, dir, {
        flags: { model: 'eye:latest' },
        tools: createToolRegistry(BUILTIN_TOOLS, { enabled: [] }),
      }),
    );
    await controller.start();
    return { controller, backend };
  }

  it('counts the attached images in the send-anyway check: two images do not fit a 1k window', async () => {
    const { controller, backend } = await startIn(
      { 'a.png': PNG_BYTES, 'b.png': PNG_BYTES },
      { capabilities: ['completion', 'vision'], numCtxParam: 1024 },
    );
    controller.submit('compare @a.png and @b.png');
    await vi.waitFor(() => expect(controller.store.get().dialog?.question).toBe('Send it anyway?'));
    controller.answerDialog('n');
    await controller.idle();
    expect(backend.requests).toHaveLength(0);
    expect(controller.transcript).toHaveLength(0);
    // One image does.
    backend.enqueue({ content: 'A pixel.' });
    await say(controller, 'what is @a.png');
    expect(controller.transcript[0]).toMatchObject({
      role: 'user',
      typed: 'what is @a.png',
      images: [PNG_BYTES.toString('base64')],
      attachments: [{ path: 'a.png', kind: 'image', size: PNG_BYTES.length }],
    });
  });
});

describe('ChatController: !command', () => {
  it('runs the command, keeps it in history, and sends its output with the next message', async () => {
    const { controller, backend } = await start();
    await say(controller, '!echo FACT-out');
    expect(backend.requests).toHaveLength(0);
    expect(controller.store.get().items.at(-1)).toMatchObject({
      kind: 'shell',
      output: 'FACT-out',
      ok: true,
    });
    expect(controller.history().at(-1)).toBe('!echo FACT-out');
    expect(controller.store.get().used).toBeGreaterThan(0);
    backend.enqueue({ content: 'I see.' });
    await say(controller, 'what did it print?');
    const users = backend.requests[0].messages.filter((m) => m.role === 'user');
    expect(users).toHaveLength(1);
    expect(users[0].content).toMatch(/^I ran a shell command in .*\nFACT-out\n```\n\nwhat did it print\?$/s);
  });

  it('! alone shows a hint and runs nothing; \\! sends the message with its !', async () => {
    const { controller, backend } = await start();
    await say(controller, '!');
    expect(controller.store.get().items.at(-1)).toMatchObject({ kind: 'notice', level: 'info' });
    expect(controller.transcript).toHaveLength(0);
    backend.enqueue({ content: 'ok' });
    await say(controller, '\\!= in JS?');
    expect(backend.requests[0].messages.at(-1)).toEqual({ role: 'user', content: '!= in JS?' });
  });

  it('in one-shot mode a prompt starting with ! is a message, never a command', async () => {
    const { controller, backend } = await start(new FakeBackend(), false);
    backend.enqueue({ content: 'ok' });
    await say(controller, '!touch pwned');
    expect(backend.requests[0].messages.at(-1)).toEqual({ role: 'user', content: '!touch pwned' });
    expect(controller.transcript[0].shell).toBeUndefined();
  });
});

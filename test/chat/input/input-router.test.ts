/** Where an Enter goes: dialogs, retries, commands at once or in turn, escaped slashes. */
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeChat, fakeChat } from '../../support/fake-chat.js';

const chats: FakeChat[] = [];
afterEach(() => {
  for (const chat of chats.splice(0)) chat.dispose();
});

async function open(): Promise<FakeChat> {
  const chat = await fakeChat();
  chats.push(chat);
  return chat;
}

const shown = (chat: FakeChat) => chat.notices().map((n) => n.text);

describe('InputRouter', () => {
  it('runs a command that may run while busy at once, and one that may not after the reply', async () => {
    const chat = await open();
    const { parts, backend } = chat;
    backend.enqueue({ hang: true, partial: 'Once' });
    parts.router.submit('tell me a story');
    await backend.hanging();
    parts.router.submit('/help');
    expect(shown(chat).some((text) => text.includes('/compact'))).toBe(true);
    parts.router.submit('/clear');
    expect(shown(chat)).not.toContain('New conversation.');
    expect(parts.abort.cancel()).toBe(true);
    await parts.queue.idle();
    expect(shown(chat)).toContain('New conversation.');
  });

  it('sends `//path …` as a message with one slash, and echoes a command before its output', async () => {
    const chat = await open();
    const { parts, backend } = chat;
    backend.enqueue({ content: 'A hosts file.' });
    parts.router.submit('//etc/hosts — what is it?');
    await parts.queue.idle();
    expect(backend.requests[0].messages.at(-1)).toEqual({
      role: 'user',
      content: '/etc/hosts — what is it?',
    });
    parts.router.submit('/nosuch');
    await parts.queue.idle();
    const items = chat.store.get().items;
    expect(items.at(-2)).toMatchObject({ kind: 'user', text: '/nosuch' });
    expect(items.at(-1)).toMatchObject({ kind: 'notice', level: 'error' });
  });

  it('gives the text typed to an open instruction dialog, not to the model', async () => {
    const chat = await open();
    const { parts, backend } = chat;
    const answer = parts.dialogs.ask({
      kind: 'tool-instruction',
      question: 'Type an instruction',
      choices: '',
    });
    parts.router.submit('use the other file  ');
    expect(await answer).toBe('use the other file');
    await parts.queue.idle();
    expect(backend.requests).toHaveLength(0);
    expect(parts.conversation.transcript).toHaveLength(0);
  });

  it('queues nothing on an empty Enter when nothing failed', async () => {
    const chat = await open();
    const { parts, backend } = chat;
    const queued: number[] = [];
    chat.store.subscribe(() => queued.push(chat.store.get().queued.length));
    parts.router.submit('   ');
    await parts.queue.idle();
    expect(queued).toEqual([]);
    expect(backend.requests).toHaveLength(0);
  });
});

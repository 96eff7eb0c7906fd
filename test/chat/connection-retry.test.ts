import { afterEach, describe, expect, it } from 'vitest';
import { startChat } from '../support/compaction-harness.js';
import { unusedPort } from '../support/down-host.js';
import { type Emulator, startEmulator } from '../support/emulator.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('a message typed while Ollama is down', () => {
  it('is kept and sent by the empty Enter that finds the server back', async () => {
    const port = await unusedPort();
    const chat = await startChat({ url: `http://127.0.0.1:${port}` } as Emulator, { model: 'llama3.2' });
    try {
      expect(chat.notices().some((n) => n.level === 'error' && n.text.includes(`127.0.0.1:${port}`))).toBe(
        true,
      );

      await chat.say('remember the milk');
      expect(chat.notices().at(-1)?.text).toBe(
        'Press Enter to try again. Your message is kept and will be sent then.',
      );
      expect(chat.transcript()).toHaveLength(0);

      emulator = await startEmulator({ port, models: [{ name: 'llama3.2:latest' }] });
      chat.controller.retry();
      await chat.controller.idle();

      expect(emulator.chats).toHaveLength(1);
      expect(emulator.chats[0].body.messages.at(-1)).toEqual({ role: 'user', content: 'remember the milk' });
      expect(
        chat.items().some((i) => i.kind === 'assistant' && i.markdown.includes('remember the milk')),
      ).toBe(true);

      // Sent once: a later empty Enter has nothing left to send.
      chat.controller.retry();
      await chat.controller.idle();
      expect(emulator.chats).toHaveLength(1);
    } finally {
      chat.dispose();
    }
  });
});

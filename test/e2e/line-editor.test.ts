/**
 * The prompt's line editor end to end: the built CLI in a PTY against the Ollama emulator, keys
 * sent as the terminal sends them, and what reached the server read from its request log.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type ChatRun, PROMPT_PLACEHOLDER, startChat, waitForChats } from '../support/e2e-chat.js';

let run: ChatRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

const LEFT = '\x1b[D';
const DELETE = '\x1b[3~';
const BACKSPACE = '\x7f';

/** The content of the last message of the `index`th chat request. */
function sent(chat: ChatRun, index: number): string {
  return chat.emu.chats[index].body.messages.at(-1).content;
}

/** The parameters of every SGR sequence in `raw`. */
function sgrParameters(raw: string): string[] {
  return [...raw.matchAll(/\x1b\[([0-9;:]*)m/g)].flatMap((m) => (m[1] === '' ? ['0'] : m[1].split(/[;:]/)));
}

describe('the line editor', () => {
  test('Delete removes the character after the cursor, Backspace the one before', async () => {
    run = await startChat();
    const { pty } = run;
    pty.write('abcd');
    await pty.waitFor('› abcd');
    pty.write(LEFT + LEFT);
    pty.write(DELETE);
    await pty.waitFor('› abd');
    pty.write(BACKSPACE);
    await pty.waitFor('› ad');
    pty.write('\r');
    await waitForChats(run.emu, 1);
    expect(sent(run, 0)).toBe('ad');
  });

  test('Backspace and arrows take a whole emoji: 👍🏽 goes at once, not its skin tone first', async () => {
    run = await startChat();
    const { pty } = run;
    pty.write('thumbs 👍🏽');
    await pty.waitFor('› thumbs 👍🏽');
    pty.write(BACKSPACE);
    pty.write('ok');
    await pty.waitFor('› thumbs ok');
    // ← steps over the family emoji in one press: the x lands before it.
    pty.write(' 👨‍👩‍👧');
    pty.write(`${LEFT}x\r`);
    await waitForChats(run.emu, 1);
    expect(sent(run, 0)).toBe('thumbs ok x👨‍👩‍👧');
  });

  test('// at the start sends a message beginning with a literal /', async () => {
    run = await startChat();
    const { pty } = run;
    pty.write('//etc/hosts — what is this?\r');
    await waitForChats(run.emu, 1);
    expect(sent(run, 0)).toBe('/etc/hosts — what is this?');
    await pty.waitFor('Echo: /etc/hosts');
    expect(pty.screen()).not.toContain('Unknown command');
  });

  test('Esc clears the prompt', async () => {
    run = await startChat();
    const { pty } = run;
    pty.write('a draft I regret');
    await pty.waitFor('› a draft I regret');
    pty.write('\x1b');
    await pty.waitFor(PROMPT_PLACEHOLDER);
    expect(pty.screen()).not.toContain('a draft I regret');
    pty.write('kept\r');
    await waitForChats(run.emu, 1);
    expect(sent(run, 0)).toBe('kept');
  });

  const colourOff: Record<string, string>[] = [{ NO_COLOR: '1' }, { FORCE_COLOR: '0' }];
  for (const env of colourOff) {
    test(`${Object.keys(env)[0]}: no colour codes in interactive mode, and the cursor stays visible`, async () => {
      run = await startChat({ env });
      const { emu, pty } = run;
      emu.enqueue({
        content: '# Heading\n\nSome **bold** text.\n\n```js\nconst answer = 42;\n```\n\nThe end.',
      });
      pty.write('show me\r');
      await pty.waitFor('The end.');
      pty.write('typing');
      await pty.waitFor('› typing');
      const styles = new Set(sgrParameters(pty.raw()));
      // Only the cursor's inverse video (7 on, 27 off), and resets.
      expect([...styles].filter((p) => !['0', '7', '27'].includes(p))).toEqual([]);
      expect(pty.raw()).toContain('typing\x1b[7m \x1b[27m');
    });
  }
});

describe('keys Ink has no name for', () => {
  test('Ctrl+F1-F4 (xterm, VTE, VS Code) and Ctrl+F13 are ignored, not fatal: the typing around them is sent', async () => {
    run = await startChat();
    const { pty } = run;
    pty.write('before');
    await pty.waitFor('› before');
    // Each threw in Ink's useInput (an undefined input) and ended ochat with a stack trace.
    for (const key of ['\x1b[1;5P', '\x1b[1;5Q', '\x1b[1;5R', '\x1b[1;5S', '\x1b[25;5~', '\x1b[1;6P'])
      pty.write(key);
    pty.write(' after');
    await pty.waitFor('› before after');
    pty.write('\r');
    await waitForChats(run.emu, 1);
    expect(sent(run, 0)).toBe('before after');
    expect(pty.screen()).not.toContain('TypeError');
  });
});

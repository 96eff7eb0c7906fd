/**
 * What a new user found confusing in a long session (issue 35), end to end: the built CLI in a
 * PTY against the emulator, colours on.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type ChatRun, startChat } from '../support/e2e-chat.js';

let run: ChatRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('thinking on a model without it', () => {
  test('/think on and /set think say once that the model has none, with no "✓ Thinking: on" after it', async () => {
    run = await startChat();
    const { pty } = run;
    pty.write('/think on\r');
    await pty.waitFor('llama3.2 does not support thinking: "on" is kept for models that do.');
    pty.write('/set think\r');
    await pty.waitFor(/does not support thinking[^\n]*\n[\s\S]*does not support thinking/);
    expect(pty.screen()).not.toContain('Thinking: on');
    expect(occurrences(pty.screen(), 'does not support thinking')).toBe(2);
  });
});

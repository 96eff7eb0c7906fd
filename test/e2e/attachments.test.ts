/** `@path` attachments end to end: what reaches the server, what is refused, what the screen shows. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { JPEG_BYTES, PNG_BYTES } from '../attachments/fixtures.js';
import {
  compactionResponder,
  conversationChats,
  sliceLines,
  summarizerChats,
} from '../support/compaction-summarizer.js';
import { type ChatRun, exitCode, startChat, waitForChats } from '../support/e2e-chat.js';
import { runOchat } from '../support/e2e-process.js';
import { startEmulator } from '../support/emulator.js';
import { NO_VISION_ERROR } from '../support/emulator-images.js';

let run: ChatRun | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await run?.close();
  run = undefined;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A working directory with these files in it. */
function workdir(files: Record<string, string | Uint8Array>): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ochat-attach-')));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

type Sent = { role: string; content: string; images?: string[] };
const lastUser = (run: ChatRun, chat: number): Sent =>
  (run.emu.chats[chat].body as { messages: Sent[] }).messages.filter((m) => m.role === 'user').at(-1)!;

describe('@path attaches a file', () => {
  test('a text file reaches the server in a fenced block; the screen shows a chip, not the file', async () => {
    const cwd = workdir({ 'notes.md': '# Plan\nship the ZEBRA release\n' });
    run = await startChat({ pty: { cwd } });
    const { pty, emu } = run;
    pty.write('summarize @notes.md please\r');
    await pty.waitFor('Echo: summarize @notes.md please');
    await waitForChats(emu, 1);
    expect(lastUser(run, 0)).toEqual({
      role: 'user',
      content: 'summarize @notes.md please\n\nnotes.md\n```\n# Plan\nship the ZEBRA release\n```',
    });
    await pty.waitFor('📎 notes.md (30 B)');
    // The echo quotes the message; the file's body is not printed as the user's message.
    expect(pty.screen().split('ZEBRA').length - 1).toBeLessThanOrEqual(1);
  });

  test('a binary file, a path outside the working directory and a missing file are refused; nothing is sent', async () => {
    const outside = workdir({ 'secret.txt': 'top secret' });
    const cwd = workdir({ 'app.bin': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1]) });
    run = await startChat({ pty: { cwd } });
    const { pty, emu } = run;
    pty.write('look at @app.bin\r');
    await pty.waitFor(
      'app.bin is a binary file; only text files and PNG, JPEG or WebP images can be attached.',
    );
    await pty.waitFor('Not sent (↑ brings it back).');
    pty.write(`read @${path.join(outside, 'secret.txt')}\r`);
    await pty.waitFor(/Access denied: .*secret\.txt" is outside the working directory/);
    pty.write('open @nope.md\r');
    await pty.waitFor('No file nope.md in');
    // A bare word that names no file is just text.
    pty.write('ask @john\r');
    await pty.waitFor('Echo: ask @john');
    await waitForChats(emu, 1);
    expect(emu.chats).toHaveLength(1);
    expect(lastUser(run, 0).content).toBe('ask @john');
  });

  test('a file over attachments.max_file_bytes is cut with a notice, and the model is told', async () => {
    const cwd = workdir({
      'big.log': 'log line number\n'.repeat(100),
      'cfg.yml': 'attachments:\n  max_file_bytes: 400\n',
    });
    run = await startChat({ pty: { cwd }, args: ['-m', 'llama3.2', '-c', path.join(cwd, 'cfg.yml')] });
    const { pty, emu } = run;
    pty.write('why @big.log\r');
    await pty.waitFor('big.log is 1.6 kB: only its first 400 B is attached (attachments.max_file_bytes).');
    await pty.waitFor('📎 big.log (first 400 B of 1.6 kB)');
    await waitForChats(emu, 1);
    const content = lastUser(run, 0).content;
    expect(content).toContain('[big.log is 1,600 bytes; only its first 400 are above.]');
    expect(content.split('log line number').length - 1).toBe(25);
  });
});

describe('@image', () => {
  const vision = [
    { name: 'llava:latest', capabilities: ['completion', 'vision'] },
    { name: 'llama3.2:latest' },
  ];

  test('goes to a vision model in `images`, as base64', async () => {
    const cwd = workdir({ 'photo.png': PNG_BYTES, 'shot.jpg': JPEG_BYTES });
    run = await startChat({ models: vision, args: ['-m', 'llava'], pty: { cwd } });
    const { pty, emu } = run;
    pty.write('what is in @photo.png and @shot.jpg?\r');
    await pty.waitFor('Echo: what is in @photo.png and @shot.jpg?');
    await pty.waitFor(`📎 photo.png (image, ${PNG_BYTES.length} B)`);
    await waitForChats(emu, 1);
    expect(lastUser(run, 0)).toEqual({
      role: 'user',
      content: 'what is in @photo.png and @shot.jpg?',
      images: [PNG_BYTES.toString('base64'), JPEG_BYTES.toString('base64')],
    });
    expect(emu.chats[0].error).toBeUndefined();
  });

  test('switching to a model that cannot see leaves earlier images out, said in their place: the chat goes on', async () => {
    const cwd = workdir({ 'photo.png': PNG_BYTES });
    run = await startChat({ models: vision, args: ['-m', 'llava'], pty: { cwd } });
    const { pty, emu } = run;
    pty.write('what is @photo.png\r');
    await pty.waitFor('Echo: what is @photo.png');
    pty.write('/model llama3.2\r');
    await pty.waitFor('llama3.2 cannot see images: those attached earlier are left out of what it is sent.');
    pty.write('and now?\r');
    await pty.waitFor('Echo: and now?');
    await waitForChats(emu, 2);
    const messages = (emu.chats[1].body as { messages: Sent[] }).messages;
    expect(messages[0]).toEqual({
      role: 'user',
      content: 'what is @photo.png\n\n[an image left out here: this model cannot see images]',
    });
    expect(emu.chats[1].error).toBeUndefined();
  });

  test('is refused for a model that cannot see, with a line saying so; nothing is sent', async () => {
    const cwd = workdir({ 'photo.png': PNG_BYTES });
    run = await startChat({ models: vision, pty: { cwd } });
    const { pty, emu } = run;
    pty.write('what is @photo.png\r');
    await pty.waitFor('llama3.2 cannot see images (its capabilities: completion); photo.png was not sent.');
    pty.write('hi\r');
    await pty.waitFor('Echo: hi');
    expect(emu.chats).toHaveLength(1);
    expect(emu.chats.some((c) => c.error?.message === NO_VISION_ERROR)).toBe(false);
  });
});

describe('Tab after @', () => {
  test('lists and completes paths in the working directory; a directory completes to its entries', async () => {
    const cwd = workdir({
      'notes.md': 'the notes\n',
      'docs/plan.md': 'the plan\n',
      'docs/pictures/a.txt': '',
    });
    run = await startChat({ pty: { cwd } });
    const { pty, emu } = run;
    pty.write('compare @no');
    await pty.waitFor('notes.md');
    pty.write('\t');
    await pty.waitFor('› compare @notes.md');
    pty.write('with @do');
    await pty.waitFor('› compare @notes.md with @do');
    pty.write('\t');
    await pty.waitFor('› compare @notes.md with @docs/');
    await pty.waitFor('docs/pictures/');
    pty.write('pl');
    await pty.waitFor('› compare @notes.md with @docs/pl');
    pty.write('\t');
    await pty.waitFor('› compare @notes.md with @docs/plan.md');
    pty.write('\r');
    await pty.waitFor('📎 docs/plan.md (9 B)');
    await waitForChats(emu, 1);
    expect(lastUser(run, 0).content).toBe(
      'compare @notes.md with @docs/plan.md \n\nnotes.md\n```\nthe notes\n```\n\ndocs/plan.md\n```\nthe plan\n```',
    );
  });
});

describe('a session with attachments', () => {
  test('resumes with the same request: the files as sent, even once they changed; the chips shown again', async () => {
    const cwd = workdir({ 'notes.md': 'version one\n', 'photo.png': PNG_BYTES });
    const home = workdir({});
    const models = [{ name: 'llava:latest', capabilities: ['completion', 'vision'] }];
    run = await startChat({ models, args: ['-m', 'llava'], pty: { cwd, home } });
    run.pty.write('see @notes.md and @photo.png\r');
    await run.pty.waitFor('Echo: see @notes.md and @photo.png');
    run.pty.write('next\r');
    await run.pty.waitFor('Echo: next');
    await waitForChats(run.emu, 2);
    type Body = { messages: unknown[] };
    const original = (run.emu.chats[1].body as Body).messages;
    run.pty.write('/quit\r');
    expect(await exitCode(run.pty)).toBe(0);
    await run.close();

    fs.writeFileSync(path.join(cwd, 'notes.md'), 'version TWO, longer than before\n');
    fs.rmSync(path.join(cwd, 'photo.png'));
    run = await startChat({ models, args: ['--continue'], pty: { cwd, home }, readyText: 'Resumed session' });
    await run.pty.waitFor('📎 notes.md (12 B)');
    await run.pty.waitFor('📎 photo.png (image,');
    run.pty.write('next\r');
    await waitForChats(run.emu, 1);
    const resumed = (run.emu.chats[0].body as Body).messages;
    // The attached message travels byte for byte as it first did, the old file and the image in it.
    expect(JSON.stringify(resumed.slice(0, 3))).toBe(JSON.stringify(original));
  });
});

describe('@path in one-shot mode', () => {
  test('-p attaches the file; a refused one is an error on stderr, exit 1, nothing sent', async () => {
    const cwd = workdir({ 'notes.md': 'remember the ZEBRA\n', 'app.bin': Buffer.from([0, 1, 2]) });
    const emu = await startEmulator({ tokensPerSecond: Number.POSITIVE_INFINITY });
    try {
      const env = { OLLAMA_HOST: emu.url };
      const ok = await runOchat(['-m', 'llama3.2', '-p', 'what is in @notes.md?'], { env, cwd });
      expect(ok.code).toBe(0);
      expect(emu.chats[0].body.messages).toEqual([
        { role: 'user', content: 'what is in @notes.md?\n\nnotes.md\n```\nremember the ZEBRA\n```' },
      ]);
      const refused = await runOchat(['-m', 'llama3.2', '-p', 'run @app.bin'], { env, cwd });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('app.bin is a binary file');
      expect(refused.stderr).not.toContain('↑');
      expect(emu.chats).toHaveLength(1);
    } finally {
      await emu.close();
    }
  });
});

describe('compaction of attached messages', () => {
  test('the summarizer reads the attached text and [image: name]; later requests carry its summary, not the image', async () => {
    const cwd = workdir({ 'photo.png': PNG_BYTES, 'notes.md': 'FACT-zebra lives here\n' });
    const models = [{ name: 'llava:latest', capabilities: ['completion', 'vision'] }];
    // The standalone summarizer prompt, which renders the slice as lines (with reuse_cache the
    // chat's own request is continued, images and all: test/e2e/compaction.test.ts).
    const config = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ochat-attach-')), 'config.yml');
    fs.writeFileSync(config, 'compaction:\n  reuse_cache: off\n');
    run = await startChat({ models, args: ['-m', 'llava'], pty: { cwd }, env: { OCHAT_CONFIG: config } });
    const { pty, emu } = run;
    emu.respondWith(compactionResponder({ chat: (_req, n) => ({ content: `Reply ${n}.` }) }));
    pty.write('look at @photo.png and @notes.md\r');
    await pty.waitFor('Reply 1.');
    pty.write('second question\r');
    await pty.waitFor('Reply 2.');
    pty.write('/compact\r');
    await pty.waitFor('Compacted');
    const [summarizer] = summarizerChats(emu);
    expect(sliceLines(summarizer)[0]).toMatch(
      /^\[0\] user: look at @photo\.png and @notes\.md notes\.md ``` FACT-zebra lives here ``` \[image: photo\.png\]$/,
    );
    expect(JSON.stringify(summarizer.body)).not.toContain(PNG_BYTES.toString('base64'));
    pty.write('third\r');
    await pty.waitFor('Reply 3.');
    const after = conversationChats(emu).at(-1)!;
    expect(JSON.stringify(after.body)).not.toContain(PNG_BYTES.toString('base64'));
    expect(JSON.stringify(after.body)).toContain('FACT-zebra');
  });
});

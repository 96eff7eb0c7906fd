/**
 * Markdown in the built app, colours on: every construct a model writes renders without taking
 * the conversation down (a language-tagged fence crashed the bundle once while every unit test
 * passed), and the app keeps answering afterwards.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type ChatRun, startChat } from '../support/e2e-chat.js';

let run: ChatRun | undefined;

afterEach(async () => {
  await run?.close();
  run = undefined;
});

const SGR = /\x1b\[[0-9;]*m/;

/** Sends `prompt`, has the model answer `reply`, waits for `shown`; returns what was written meanwhile. */
async function exchange(chat: ChatRun, prompt: string, reply: string, shown: string): Promise<string> {
  const before = chat.pty.raw().length;
  chat.emu.enqueue({ content: reply });
  chat.pty.write(`${prompt}\r`);
  await chat.pty.waitFor(shown);
  return chat.pty.raw().slice(before);
}

const CONSTRUCTS: [name: string, reply: string, shown: string][] = [
  ['a python fence', '```python\ndef answer():\n    return 42\n```', 'return 42'],
  ['a typescript fence', '```ts\nconst total: number = 1 + 2;\n```', 'const total: number = 1 + 2;'],
  ['a bash fence', '```bash\nfor f in *.txt; do echo "$f"; done\n```', 'for f in *.txt; do echo "$f"; done'],
  [
    'a rust fence with an info string',
    '```rust title=main.rs\nfn main() { println!("hi"); }\n```',
    'fn main()',
  ],
  ['a fence in an unknown language', '```klingon-script\nqapla batlh\n```', 'qapla batlh'],
  ['a fence without a language', '```\nplain fenced text\n```', 'plain fenced text'],
  ['a table', '| name | size |\n| --- | --- |\n| alpha | 10 |\n| beta | 20 |', 'alpha'],
  ['lists', '- first item\n- **second** item\n\n1. one\n2. two', 'second item'],
  ['a link', 'See [the docs](https://example.com/docs) now.', 'the docs'],
  ['headings', '# Top title\n\n## Sub title\n\nbody text', 'Sub title'],
  ['a quote', '> quoted wisdom here', 'quoted wisdom here'],
  ['inline code', 'Run `npm test` first.', 'npm test'],
];

describe('markdown in the built app (colours on)', () => {
  test('renders every construct, styled, and keeps the chat going', async () => {
    run = await startChat();
    for (const [name, reply, shown] of CONSTRUCTS) {
      const written = await exchange(run, `show ${name}`, reply, shown);
      expect(written, name).toMatch(SGR);
      expect(run.pty.screen(), name).not.toMatch(/ERROR|is not a function|markedjs/);
    }
    // The markdown markers are gone: rendered, not echoed.
    const screen = run.pty.screen();
    expect(screen).not.toContain('```python');
    expect(screen).not.toContain('**second**');
    expect(screen).toContain('plain fenced text');
  });

  test('highlights the keywords of a language-tagged fence', async () => {
    run = await startChat();
    const written = await exchange(run, 'code', '```python\nimport os\n```', 'import os');
    expect(written).toMatch(/\x1b\[[0-9;]+mimport\x1b\[/);
  });

  test('a reply mixing every construct renders whole', async () => {
    run = await startChat();
    const reply = [
      '# Plan',
      'Some *emphasis*, **strength** and `inline code`, see [link](https://example.com).',
      '> a quote',
      '- item one\n- item two',
      '| a | b |\n| - | - |\n| 1 | 2 |',
      '```python\nprint("py")\n```',
      '```no-such-language\nraw stuff\n```',
      '```\nno language\n```',
      'The end of the mixed reply.',
    ].join('\n\n');
    await exchange(run, 'everything', reply, 'The end of the mixed reply.');
    const screen = run.pty.screen();
    for (const text of ['Plan', 'strength', 'a quote', 'item two', 'print("py")', 'raw stuff', 'no language'])
      expect(screen).toContain(text);
    // Still alive: the next message gets its answer.
    await exchange(run, 'still there?', 'Yes, still here.', 'Yes, still here.');
  });
});

describe('code blocks', () => {
  test.each([
    ['colours on', {}],
    ['NO_COLOR', { NO_COLOR: '1' }],
  ])('carry a language label and a frame, the code unindented (%s)', async (_name, env) => {
    run = await startChat({ env });
    run.emu.enqueue({ content: 'Here:\n\n```python\ndef answer():\n    return 42\n```\n\nDONE-CODE' });
    run.pty.write('code please\r');
    await run.pty.waitFor('DONE-CODE');
    const rows = run.pty.screen().split('\n');
    const top = rows.findIndex((row) => row.startsWith('╭─ python ─'));
    expect(top, run.pty.screen()).toBeGreaterThan(-1);
    // The code as written, from the first column: a selection copies it without an indent.
    expect(rows.slice(top + 1, top + 4)).toEqual([
      'def answer():',
      '    return 42',
      expect.stringMatching(/^╰─{9,}/),
    ]);
  });
});

describe('/copy', () => {
  const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

  test("puts the last reply's code block, or with all the whole reply, on the clipboard through OSC 52; a reply cannot", async () => {
    run = await startChat();
    const reply = 'Try:\n\n```python\ndef answer():\n    return 42\n```\n\nDONE-COPY';
    run.emu.enqueue({ content: reply });
    run.pty.write('code please\r');
    await run.pty.waitFor('DONE-COPY');
    run.pty.write('/copy\r');
    await run.pty.waitFor('Copied the last code block (python), 2 lines, to the clipboard');
    expect(run.pty.raw()).toContain(`\x1b]52;c;${base64('def answer():\n    return 42')}\x07`);
    run.pty.write('/copy all\r');
    await run.pty.waitFor('Copied the last reply, 8 lines');
    expect(run.pty.raw()).toContain(`\x1b]52;c;${base64(reply)}\x07`);

    // A model writing OSC 52 itself never reaches the terminal: only /copy sets the clipboard.
    run.emu.enqueue({ content: 'sneaky \x1b]52;c;ZXZpbA==\x07 text DONE-SNEAK' });
    run.pty.write('again\r');
    await run.pty.waitFor('DONE-SNEAK');
    expect(run.pty.raw()).not.toContain('ZXZpbA==');
  });
});

/**
 * One-shot mode (`-p`) and the informational flags, end to end: the built CLI as a plain child
 * process (stdout and stderr apart, stdin piped) against the Ollama emulator.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { runOchat } from '../support/e2e-process.js';
import { type Emulator, startEmulator } from '../support/emulator.js';
import { waitUntil } from '../support/wait-until.js';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

let emu: Emulator;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({
    tokensPerSecond: Number.POSITIVE_INFINITY,
    models: [{ name: 'llama3.2:latest' }, { name: 'qwen3:latest' }],
  });
  env = { OLLAMA_HOST: emu.url };
});

afterAll(() => emu.close());

beforeEach(() => {
  emu.chats.length = 0;
  emu.respondWith(undefined);
});

describe('ochat -p', () => {
  test('a reply the server ends with a done and no content is said, exit 1, nothing on stdout', async () => {
    emu.enqueue({ content: '' });
    const result = await runOchat(['-m', 'llama3.2', '-p', 'hello'], { env });
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('warning: Ollama sent an empty reply: no text and no tool calls.\n');
    expect(result.code).toBe(1);
  });

  test('lines of the stream that are not JSON are said, exit 1; the reply around them is printed', async () => {
    emu.enqueue({
      content: 'one two three four',
      fault: {
        kind: 'malformed-line',
        afterChunks: 2,
        lines: ['<html>502 Bad Gateway</html>', '{"model": "x", "mess'],
      },
    });
    const result = await runOchat(['-m', 'llama3.2', '-p', 'hello'], { env });
    expect(result.stdout).toBe('one two three four\n');
    expect(result.stderr).toBe(
      "warning: 2 lines of Ollama's reply stream were not JSON and skipped: the reply may be missing what they carried.\n",
    );
    expect(result.code).toBe(1);
  });

  test('piped input is capped: < /dev/zero is a clear error naming the limit, exit 2, nothing sent', async () => {
    const started = Date.now();
    const result = await runOchat(['-m', 'llama3.2', '-p', 'hello'], {
      env,
      stdinFrom: '/dev/zero',
      timeoutMs: 10_000,
    });
    expect(result.stderr).toBe(
      'ochat: piped input is over 8 MB, the most a one-shot reads; send less (e.g. head -c 1M file | ochat -p "…").\n',
    );
    expect(result.code).toBe(2);
    expect(emu.chats).toHaveLength(0);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('without -y a tool that needs confirmation is not run: stderr says so and that -y allows it', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ochat-e2e-cwd-'));
    emu.setModels([
      { name: 'llama3.2:latest' },
      { name: 'toolful:latest', capabilities: ['completion', 'tools'] },
    ]);
    try {
      emu.enqueue(
        { toolCalls: [{ name: 'run_command', arguments: { command: 'touch made.txt' } }] },
        { content: 'I could not run it.' },
      );
      const result = await runOchat(['-m', 'toolful', '-p', 'make a file'], { env, cwd });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('I could not run it.\n');
      expect(result.stderr).toBe('✗ run_command touch made.txt — needs confirmation; -y allows it\n');
      expect(readdirSync(cwd)).not.toContain('made.txt');
      const told = emu.chats[1]?.body.messages.at(-1);
      expect(told.role).toBe('tool');
      expect(told.content).toContain('-y');
      expect(told.content).not.toMatch(/user declined/);
    } finally {
      emu.setModels([{ name: 'llama3.2:latest' }, { name: 'qwen3:latest' }]);
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  test('a run_command whose working directory is gone names that folder, and the model is told so', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ochat-e2e-cwd-'));
    emu.setModels([
      { name: 'llama3.2:latest' },
      { name: 'toolful:latest', capabilities: ['completion', 'tools'] },
    ]);
    try {
      emu.enqueue(
        // The first command removes ochat's own working directory; the second can then not start there.
        { toolCalls: [{ name: 'run_command', arguments: { command: 'rmdir "$PWD"' } }] },
        { toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi' } }] },
        { content: 'The folder is gone.' },
      );
      const result = await runOchat(['-m', 'toolful', '-y', '-p', 'clean up'], { env, cwd });
      expect(result.stdout).toBe('The folder is gone.\n');
      expect(result.stderr).toContain(
        `✗ run_command echo hi — the working directory ${cwd} does not exist\n`,
      );
      expect(result.stderr).not.toContain('ENOENT');
      const told = emu.chats[2]?.body.messages.at(-1);
      expect(told.role).toBe('tool');
      expect(told.content).toContain(`[could not start: the working directory ${cwd} does not exist]`);
    } finally {
      emu.setModels([{ name: 'llama3.2:latest' }, { name: 'qwen3:latest' }]);
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  test('prints the reply on stdout as plain text and exits 0', async () => {
    emu.enqueue({ content: 'The answer is **42**.' });
    const result = await runOchat(['-m', 'llama3.2', '-p', 'What is the answer?'], { env });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('The answer is **42**.\n');
    expect(result.code).toBe(0);
    expect(emu.chats).toHaveLength(1);
    const { body } = emu.chats[0];
    expect(body.stream).toBe(true);
    expect(body.options.num_ctx).toBe(8192);
    expect(body.messages).toEqual([{ role: 'user', content: 'What is the answer?' }]);
  });

  test('remembers the model and its calibration for the next run (the state file opens after the reply)', async () => {
    const data = mkdtempSync(join(tmpdir(), 'ochat-e2e-data-'));
    try {
      const runEnv = { ...env, XDG_DATA_HOME: data };
      const first = await runOchat(['-m', 'qwen3', '-p', 'hello'], { env: runEnv });
      expect(first.code).toBe(0);
      const state = JSON.parse(readFileSync(join(data, 'ochat', 'state.json'), 'utf8'));
      expect(state.lastModel).toBe('qwen3');
      expect(state.calibration.qwen3).toBeGreaterThan(0);
      // Two models are installed: without -m only the remembered one can be chosen.
      const second = await runOchat(['-p', 'again'], { env: runEnv });
      expect(second.code).toBe(0);
      expect(emu.chats.at(-1)?.body.model).toBe('qwen3');
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  test('is compiled from a code cache after its first run: written as that run exits, taken as is by the next, replaced when damaged; so are the config and command-line parsers', async () => {
    const home = mkdtempSync(join(tmpdir(), 'ochat-e2e-cache-'));
    try {
      const runEnv = { ...env, XDG_CACHE_HOME: join(home, 'cache'), XDG_DATA_HOME: join(home, 'data') };
      const codeDir = join(home, 'cache', 'ochat', 'code');
      const run = async (prompt: string) => {
        const result = await runOchat(['-m', 'llama3.2', '-p', prompt], { env: runEnv });
        expect(result).toEqual({ code: 0, stdout: `Echo: ${prompt}\n`, stderr: '' });
      };
      await run('first');
      // On Node < 22.1 the entry is kept too (src/modes/start.ts): test/e2e/first-frame.test.ts.
      const [kept] = readdirSync(codeDir).filter((name) => !name.startsWith('ochat.'));
      expect(kept).toMatch(/^one-shot\.[0-9a-f]{16}\.v\d+\.\d+\.\d+-\w+\.bin$/);
      const written = statSync(join(codeDir, kept));
      expect(written.size).toBeGreaterThan(10_000);

      // A cache V8 takes is never written again; one it refuses would be.
      const afterFirst = readdirSync(codeDir);
      await run('second');
      expect(readdirSync(codeDir)).toEqual(afterFirst);
      expect(statSync(join(codeDir, kept)).mtimeMs).toBe(written.mtimeMs);
      // conf, imported by the entry for the code-cached one-shot, wrote the state file after the reply.
      expect(JSON.parse(readFileSync(join(home, 'data', 'ochat', 'state.json'), 'utf8')).lastModel).toBe(
        'llama3.2',
      );

      writeFileSync(join(codeDir, kept), 'not a code cache');
      await run('third');
      expect(statSync(join(codeDir, kept)).size).toBeGreaterThan(10_000);

      // The config file's parser and the command-line parser are kept the same way.
      const config = join(home, 'config.yml');
      writeFileSync(config, 'options:\n  temperature: 0.5\n');
      const withConfig = await runOchat(['-c', config, '-m', 'llama3.2', '-p', 'fourth'], { env: runEnv });
      expect(withConfig.code).toBe(0);
      expect((await runOchat(['--help'], { env: runEnv })).code).toBe(0);
      expect(
        readdirSync(codeDir)
          .map((name) => name.split('.')[0])
          .filter((name) => name !== 'ochat')
          .sort(),
      ).toEqual(['command-line', 'one-shot', 'parse-config']);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  test('sends piped stdin after the prompt', async () => {
    const result = await runOchat(['-m', 'llama3.2', '-p', 'summarize'], { env, input: 'data\nmore data\n' });
    expect(result.code).toBe(0);
    expect(emu.chats[0].body.messages).toEqual([{ role: 'user', content: 'summarize\n\ndata\nmore data' }]);
    expect(result.stdout).toBe('Echo: summarize\n\ndata\nmore data\n');
  });

  test('stdin from a file is sent whole after the prompt (read at once, past one read), from /dev/null adds nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ochat-e2e-stdin-'));
    try {
      const file = join(dir, 'input.txt');
      // ~92 kB: more than one read of a file on stdin takes; a window that holds it.
      const lines = Array.from({ length: 3000 }, (_, i) => `line ${i} of the file on stdin`);
      writeFileSync(file, `${lines.join('\n')}\n`);
      const fromFile = await runOchat(['-m', 'llama3.2', '--num-ctx', '65536', '-p', 'count'], {
        env,
        stdinFrom: file,
      });
      expect(fromFile.code).toBe(0);
      expect(emu.chats[0].body.messages).toEqual([{ role: 'user', content: `count\n\n${lines.join('\n')}` }]);
      const fromNull = await runOchat(['-m', 'llama3.2', '-p', 'alone'], { env, stdinFrom: '/dev/null' });
      expect(fromNull.code).toBe(0);
      expect(emu.chats[1].body.messages).toEqual([{ role: 'user', content: 'alone' }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('stdin from a folder is refused by name: exit 2, nothing sent (it was ignored)', async () => {
    const result = await runOchat(['-m', 'llama3.2', '-p', 'summarize'], { env, stdinFrom: tmpdir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('standard input is a folder');
    expect(emu.chats).toHaveLength(0);
  });

  test('-p - takes the prompt from stdin alone; words after the options join the prompt', async () => {
    const dash = await runOchat(['-m', 'llama3.2', '-p', '-'], { env, input: 'from a pipe\n' });
    expect(dash.code).toBe(0);
    expect(emu.chats[0].body.messages).toEqual([{ role: 'user', content: 'from a pipe' }]);
    const words = await runOchat(['-m', 'llama3.2', 'what is', 'this?', '-p'], { env });
    expect(words.code).toBe(0);
    expect(words.stdout).toBe('Echo: what is this?\n');
  });

  test('piped stdin alone is the prompt', async () => {
    const result = await runOchat(['-m', 'llama3.2', '-p'], { env, input: 'only stdin\n' });
    expect(result.code).toBe(0);
    expect(emu.chats[0].body.messages).toEqual([{ role: 'user', content: 'only stdin' }]);
  });

  test('without a prompt or stdin it is a usage error: exit 2, nothing sent', async () => {
    const result = await runOchat(['-m', 'llama3.2', '-p'], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('-p needs a prompt');
    expect(emu.chats).toHaveLength(0);
  });

  test('uses the only installed model when none is named, and passes -s and --num-ctx', async () => {
    emu.setModels([{ name: 'solo:latest' }]);
    try {
      const result = await runOchat(['-p', 'hi', '-s', 'Be terse.', '--num-ctx', '3000'], { env });
      expect(result.code).toBe(0);
      const { body } = emu.chats[0];
      expect(body.model).toBe('solo:latest');
      expect(body.options.num_ctx).toBe(3000);
      expect(body.messages[0]).toEqual({ role: 'system', content: 'Be terse.' });
    } finally {
      emu.setModels([{ name: 'llama3.2:latest' }, { name: 'qwen3:latest' }]);
    }
  });

  test("loads nothing before its first reply byte that the reply does not use: not undici (Node's fetch), crypto, child_process, worker_threads, readline, tty (with pipes for stdio), fs/promises (no instruction file), an fs.ReadStream for stdin from /dev/null, nor an Intl.Segmenter", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ochat-e2e-modules-'));
    try {
      // Preloaded into ochat's process: at the reply's first byte, writes the list of Node's own
      // modules loaded so far, and how many Intl.Segmenters were built (each costs 8-12 ms of ICU
      // data). Each of these was loaded by some import on the way and cost a start milliseconds.
      const listFile = join(dir, 'modules.txt');
      const preload = join(dir, 'list-modules.cjs');
      writeFileSync(
        preload,
        `let built = 0;
const Segmenter = Intl.Segmenter;
Intl.Segmenter = class extends Segmenter { constructor(...args) { super(...args); built++; } };
const write = process.stdout.write.bind(process.stdout);
let listed = false;
process.stdout.write = (...args) => {
  if (!listed) {
    listed = true;
    require('node:fs').writeFileSync(${JSON.stringify(listFile)}, ['segmenters ' + built, ...process.moduleLoadList].join('\\n'));
  }
  return write(...args);
};`,
      );
      const loadedWith = async (stdinFrom?: string) => {
        emu.enqueue({ content: 'Over node:http.' });
        const result = await runOchat(['-m', 'llama3.2', '-p', 'hi'], {
          env: { ...env, NODE_OPTIONS: `--require ${preload}` },
          stdinFrom,
        });
        expect(result.stdout).toBe('Over node:http.\n');
        return readFileSync(listFile, 'utf8').split('\n');
      };
      const isLoaded = (loaded: string[], name: string) =>
        loaded.some((each) => each.endsWith(`/${name}`) || each.endsWith(` ${name}`));
      // stdin an empty pipe.
      const loaded = await loadedWith();
      expect(loaded).toContain('NativeModule http');
      expect(loaded[0]).toBe('segmenters 0');
      for (const unused of [
        'undici',
        'crypto',
        'child_process',
        'worker_threads',
        'readline',
        'tty',
        'fs/promises',
      ]) {
        expect(isLoaded(loaded, unused), unused).toBe(false);
      }
      // stdin /dev/null, read without process.stdin: no fs.ReadStream.
      const fromNull = await loadedWith('/dev/null');
      for (const unused of ['fs/streams', 'fs/promises'])
        expect(isLoaded(fromNull, unused), unused).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('SIGTERM to a one-shot ends the run_command it approved (-y), its whole process group, as the chat does', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ochat-e2e-cwd-'));
    emu.setModels([{ name: 'toolful:latest', capabilities: ['completion', 'tools'] }]);
    try {
      // A child that ignores SIGTERM: only the group's SIGKILL after the grace ends it. $PPID is ochat.
      const command = `sh -c 'trap "" TERM; sleep 60' & echo $! > child.pid; echo $$ > shell.pid; echo $PPID > ochat.pid; sleep 60`;
      // Only the call: ochat is ended before the tool's result goes back.
      emu.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command } }] });
      const run = runOchat(['-m', 'toolful', '-y', '-p', 'run it'], { env, cwd, timeoutMs: 20_000 });
      const pidIn = (file: string) => Number(readFileSync(join(cwd, file), 'utf8'));
      await waitUntil(
        'the command started',
        () =>
          ['child.pid', 'shell.pid', 'ochat.pid'].every(
            (f) => existsSync(join(cwd, f)) && readFileSync(join(cwd, f), 'utf8').endsWith('\n'),
          ),
        { timeoutMs: 10_000 },
      );
      const pids = [pidIn('child.pid'), pidIn('shell.pid')];
      process.kill(pidIn('ochat.pid'), 'SIGTERM');
      expect((await run).code).toBe(143);
      // Before, both were left running, orphaned, for their whole minute.
      await waitUntil('the command and its child ended with ochat', () => !pids.some(isAlive), {
        timeoutMs: 3_000,
      });
    } finally {
      emu.setModels([{ name: 'llama3.2:latest' }, { name: 'qwen3:latest' }]);
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  test('terminal control sequences in the reply do not reach stdout', async () => {
    emu.enqueue({ content: 'safe \x1b]0;pwned\x07text\x1b[2J done' });
    const result = await runOchat(['-m', 'llama3.2', '-p', 'hi'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('safe text done\n');
  });

  test('an error mid-stream: the partial reply on stdout, the error on stderr, exit 1', async () => {
    emu.enqueue({
      content: 'Partial answer that breaks off',
      fault: {
        kind: 'error-line',
        afterChunks: 2,
        error: 'an error was encountered while running the model',
      },
    });
    const result = await runOchat(['-m', 'llama3.2', '-p', 'hi'], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('Partial \n');
    expect(result.stderr).toContain('an error was encountered while running the model');
  });
});

describe('ochat -p /command', () => {
  test('a command that says an error exits 1, whichever part said it; one that does its work exits 0', async () => {
    // Each of these says its error through a different part: the model connector, /save's own
    // check, the session room; none throws out of its command.
    for (const line of ['/model nosuch', '/save /tmp/not-markdown.txt', '/load /nonexistent.jsonl']) {
      const result = await runOchat(['-m', 'llama3.2', '-p', line], { env });
      expect({ line, code: result.code }).toEqual({ line, code: 1 });
      expect(result.stderr).toMatch(/^ochat: /m);
    }
    const shown = await runOchat(['-m', 'llama3.2', '-p', '/show'], { env });
    expect(shown.code).toBe(0);
    expect(shown.stderr).toContain('Model llama3.2');
    expect(emu.chats).toHaveLength(0);
  });
});

describe('informational flags', () => {
  test('--help mentions every flag and exits 0', async () => {
    const result = await runOchat(['--help']);
    expect(result.code).toBe(0);
    for (const flag of [
      '-m, --model <name>',
      '--host <url>',
      '-c, --config <file>',
      '-s, --system <text>',
      '--num-ctx <n>',
      '-p, --print [prompt]',
      '-y, --yes',
      '-v, --version',
      '-h, --help',
      '--api <api>',
    ]) {
      expect(result.stdout).toContain(flag);
    }
    // The servers, their detection, keys and what only Ollama has (issue 32's done-when).
    expect(result.stdout).toMatch(/\/api\/version means Ollama,\s+\/v1\/models OpenAI/);
    expect(result.stdout).toContain('$OCHAT_API_KEY or $OPENAI_API_KEY');
    expect(result.stdout).toContain("/unload and keep_alive are Ollama's only");
  });

  test('--version prints the package version and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8'));
    const result = await runOchat(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(version);
  });

  test('an unknown flag is a usage error with exit 2', async () => {
    const result = await runOchat(['--modle', 'x', '-p', 'hi']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--modle');
  });
});

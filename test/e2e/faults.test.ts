/**
 * Faults in tools and in talking to the server, on the built CLI in a PTY: each must end with a
 * clear line, lose nothing, and leave the app usable (issue 7).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import {
  type FaultServer,
  type SilentServer,
  startFaultyServer,
  startSelfSignedTlsServer,
  startSilentServer,
} from '../support/down-host.js';
import { type ChatRun, PROMPT_PLACEHOLDER, startChat, waitForChats } from '../support/e2e-chat.js';
import { runOchat } from '../support/e2e-process.js';
import { type PtySession, spawnOchat } from '../support/pty-session.js';
import { startToolRun, type ToolRun, toolMessagesOf } from '../support/tools-e2e.js';
import { deliberatePause } from '../support/wait-until.js';

let run: ToolRun | ChatRun | undefined;
let silent: SilentServer | undefined;
let pty: PtySession | undefined;
let faulty: FaultServer | undefined;
const dirs: string[] = [];
/**
 * How long a Ctrl+C may take to show, on a loaded machine: far under the timeouts that a cancel
 * that does not work would end at (a wall-clock bound would fail on a busy machine).
 */
const CANCEL_DEADLINE_MS = 10_000;

afterEach(async () => {
  await run?.close();
  run = undefined;
  await pty?.dispose();
  pty = undefined;
  await silent?.close();
  silent = undefined;
  await faulty?.close();
  faulty = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A config file with these YAML lines, removed after the test. */
function configFile(yaml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ochat-faults-'));
  dirs.push(dir);
  const file = join(dir, 'config.yml');
  writeFileSync(file, yaml);
  return file;
}

/** What no message may ever show: undici's raw error codes. */
const RAW_CODE = /UND_ERR|ECONN|TypeError|at .*\.js:\d+/;

describe('tool faults', () => {
  test('malformed tool calls get error results; the chat, /context and /compact go on', async () => {
    const tools = await startToolRun();
    run = tools;
    const { emu, pty } = tools;
    emu.enqueue(
      { rawToolCalls: [{ function: {} }, { function: { name: 7 } }, null] },
      { content: 'Sorry, my calls were broken.' },
    );
    pty.write('list things\r');
    await pty.waitFor('Sorry, my calls were broken.');
    expect(pty.screen()).toContain('✗ malformed call (the tool name is missing)');
    expect(pty.screen()).toContain('✗ 7 — malformed call of 7 (the tool name is a number (7))');
    const [, second] = await tools.waitForRequests(2);
    expect(second.error).toBeUndefined();
    expect(toolMessagesOf(second).map((m) => m.content)).toEqual([
      expect.stringMatching(/^Error: malformed tool call: the tool name is missing\./),
      expect.stringMatching(/^Error: malformed tool call: the tool name is a number \(7\)\./),
      expect.stringMatching(/^Error: malformed tool call: the call is null, not an object\./),
    ]);

    pty.write('still there?\r');
    await pty.waitFor('Echo: still there?');
    pty.write('/context\r');
    await pty.waitFor('Context window:');
    pty.write('/compact\r');
    await pty.waitFor(/Compacted \d+ messages/);
    expect(tools.chatRequests().every((request) => request.error === undefined)).toBe(true);
  });

  test('read_file on a FIFO is refused at once; the chat goes on', async () => {
    const tools = await startToolRun();
    run = tools;
    const { emu, pty, cwd } = tools;
    execFileSync('mkfifo', [join(cwd, 'pipe')]);
    emu.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'pipe' } }] },
      { content: 'It is a pipe.' },
    );
    pty.write('read pipe\r');
    await pty.waitFor('It is a pipe.');
    expect(pty.screen()).toContain('✗ read_file pipe — read pipe (not a regular file)');
    const [, second] = await tools.waitForRequests(2);
    expect(toolMessagesOf(second)[0].content).toBe(
      'pipe is a named pipe (FIFO), not a regular file; only files can be read.',
    );
    pty.write('next\r');
    await pty.waitFor('Echo: next');
  });
});

describe('search_files with a catastrophic pattern ((a+)+$ over 50,000 a)', () => {
  const hostileCall = { toolCalls: [{ name: 'search_files', arguments: { pattern: '(a+)+$' } }] };

  test('Ctrl+C frees the app at once, not at the 60 s command timeout; the chat goes on', async () => {
    const tools = await startToolRun();
    run = tools;
    const { emu, pty: chat, cwd } = tools;
    writeFileSync(join(cwd, 'long.txt'), `${'a'.repeat(50_000)}!\n`);
    emu.enqueue(hostileCall);
    chat.write('search\r');
    await chat.waitFor('running search_files');
    // Past reading the file: the pattern is running now.
    await deliberatePause(500, 'Ctrl+C while the pattern runs, which nothing on screen shows');
    chat.write('\x03');
    // A pattern running on the main thread would hold the app until tools.command_timeout (60 s).
    await chat.waitFor('(cancelled)', CANCEL_DEADLINE_MS);
    chat.write('next\r');
    await chat.waitFor('Echo: next');
  });

  test('past tools.command_timeout the search stops and the model is told the pattern is too slow', async () => {
    const tools = await startToolRun({ config: 'tools:\n  command_timeout: 1\n' });
    run = tools;
    const { emu, pty: chat, cwd } = tools;
    writeFileSync(join(cwd, 'long.txt'), `${'a'.repeat(50_000)}!\n`);
    emu.enqueue(hostileCall, { content: 'I will use a simpler pattern.' });
    chat.write('search\r');
    await chat.waitFor('I will use a simpler pattern.', 5_000);
    expect(chat.screen()).toContain(
      '✗ search_files "(a+)+$" in . — search "(a+)+$" in ./ (pattern too slow)',
    );
    const [, second] = await tools.waitForRequests(2);
    expect(toolMessagesOf(second)[0].content).toMatch(/^search stopped: pattern too slow/);
  });
});

describe('server faults', () => {
  test('after a mid-reply failure with a partial reply, an empty Enter retries the turn', async () => {
    run = await startChat();
    const { emu, pty } = run;
    emu.enqueue({
      content: 'Partial answer that will break off here',
      fault: {
        kind: 'error-line',
        afterChunks: 4,
        error: 'an error was encountered while running the model',
      },
    });
    pty.write('break please\r');
    await pty.waitFor('[interrupted]');
    await pty.waitFor('Press Enter on an empty prompt to retry');
    await pty.waitFor(PROMPT_PLACEHOLDER);
    pty.write('\r');
    await pty.waitFor('Echo: break please');
    await waitForChats(emu, 2);
    // The retry asks again; the partial reply stays on screen but is not sent to be continued.
    expect(emu.chats[1].body.messages).toEqual([{ role: 'user', content: 'break please' }]);
    expect(pty.screen()).toContain('Partial answer t');

    pty.write('next\r');
    await pty.waitFor('Echo: next');
    await waitForChats(emu, 3);
    const contents = (emu.chats[2].body.messages as { role: string; content: string }[]).map(
      (m) => m.content,
    );
    expect(contents).toEqual(['break please', 'Echo: break please', 'next']);
  });

  test('an empty reply and lines of the stream that are not JSON are said in words, not passed over', async () => {
    run = await startChat();
    const { emu, pty } = run;
    emu.enqueue(
      { content: '' },
      { content: 'kept words here', fault: { kind: 'malformed-line', afterChunks: 1 } },
    );
    pty.write('anything?\r');
    await pty.waitFor('Ollama sent an empty reply: no text and no tool calls.');
    pty.write('again\r');
    await pty.waitFor("1 line of Ollama's reply stream was not JSON and skipped");
    expect(pty.screen()).toContain('kept words here');
  });
});

describe('a server that accepts the connection and never answers', () => {
  test('while connecting (/api/show): /help answers at once, Ctrl+C cancels at once, not at the 120 s request timeout', async () => {
    silent = await startSilentServer();
    pty = spawnOchat(['-m', 'llama3.2'], { env: { OLLAMA_HOST: silent.url } });
    await pty.waitFor(`connecting to ${silent.url}`);
    pty.write('/help\r');
    await pty.waitFor('List the slash commands and keys');
    pty.write('\x03');
    // Without the cancel, connecting would end at request_timeout_s (120 s).
    await pty.waitFor(`Cancelled connecting to ${silent.url}.`, CANCEL_DEADLINE_MS);
    await pty.waitFor('Press Enter to try again');
    expect(pty.screen()).not.toMatch(RAW_CODE);
  });

  test('after request_timeout_s without a byte, the start-up ends with one clear line', async () => {
    silent = await startSilentServer();
    pty = spawnOchat(['-m', 'llama3.2', '-c', configFile('request_timeout_s: 1\n')], {
      env: { OLLAMA_HOST: silent.url },
    });
    await pty.waitFor(`Ollama at ${silent.url} sent nothing for 1 s, so the request was stopped.`, 5_000);
    expect(pty.screen()).not.toMatch(RAW_CODE);
  });

  test('-p ends after request_timeout_s with a clear error and exit code 1', async () => {
    silent = await startSilentServer();
    const result = await runOchat(
      ['-m', 'llama3.2', '-c', configFile('request_timeout_s: 1\n'), '-p', 'hi'],
      {
        env: { OLLAMA_HOST: silent.url },
      },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('sent nothing for 1 s, so the request was stopped');
    expect(result.stderr).not.toMatch(RAW_CODE);
  });

  test('waiting for the first byte: /context and /help answer, Ctrl+C cancels the turn', async () => {
    run = await startChat();
    const { emu, pty: chat } = run;
    emu.enqueue({ content: 'never sent', firstByteDelayMs: 60_000 });
    chat.write('hello\r');
    await chat.waitFor('waiting for llama3.2');
    chat.write('/context\r');
    await chat.waitFor('Context window:');
    chat.write('/help\r');
    await chat.waitFor('List the slash commands and keys');
    chat.write('\x03');
    // Without the cancel, the turn would wait out the 60 s first byte.
    await chat.waitFor('Cancelled.', CANCEL_DEADLINE_MS);
    chat.write('again\r');
    await chat.waitFor('Echo: again');
  });

  test('mid-stream: after request_timeout_s the turn ends with one line, the partial reply kept; Enter retries', async () => {
    run = await startChat({ args: ['-m', 'llama3.2', '-c', configFile('request_timeout_s: 1\n')] });
    const { emu, pty: chat } = run;
    emu.enqueue({ content: 'Partial answer then silence', fault: { kind: 'hang', afterChunks: 3 } });
    chat.write('tell me\r');
    await chat.waitFor(`Ollama at ${emu.url} sent nothing for 1 s, so the request was stopped.`, 5_000);
    expect(chat.screen()).toMatch(/Partial answ\s*\n\[interrupted\]/);
    expect(chat.screen()).not.toMatch(RAW_CODE);
    await chat.waitFor('Press Enter on an empty prompt to retry');
    await chat.waitFor(PROMPT_PLACEHOLDER);
    chat.write('\r');
    await chat.waitFor('Echo: tell me');
  });
});

describe('a stream line without a newline', () => {
  test('is cut at 16 MB with a clear error; the partial reply is kept and the chat goes on', async () => {
    run = await startChat();
    const { emu, pty: chat } = run;
    emu.enqueue({
      content: 'Before the flood',
      fault: { kind: 'endless-line', afterChunks: 2, bytes: 17 * 1024 * 1024 },
    });
    chat.write('flood me\r');
    await chat.waitFor('sent a line of more than 16 MB without a line break', 20_000);
    expect(chat.screen()).toMatch(/Before t\s*\n\[interrupted\]/);
    chat.write('next\r');
    await chat.waitFor('Echo: next');
  });
});

/** A library's raw error code, such as ERR_SSL_WRONG_VERSION_NUMBER, UND_ERR_SOCKET, ECONNRESET, EPROTO. */
const LIBRARY_CODE = /\b(?:ERR_[A-Z_]+|UND_ERR\w*|E[A-Z]{4,}|HPE_\w+|[A-Z]+_CERT\w*)\b/;

describe('connection faults say what happened and what to do, naming the host', () => {
  test('https:// to the plain-HTTP server: the chat says so and offers http://, no SSL code', async () => {
    run = await startChat();
    const https = run.emu.url.replace('http://', 'https://');
    await run.pty.dispose();
    pty = spawnOchat(['-m', 'llama3.2'], { env: { OLLAMA_HOST: https } });
    await pty.waitFor('answers plain HTTP, not HTTPS');
    await pty.waitFor(`use ${run.emu.url} in --host / OLLAMA_HOST`);
    expect(pty.screen()).toContain(`Cannot reach Ollama at ${https}`);
    expect(pty.screen()).not.toMatch(LIBRARY_CODE);
    expect(pty.screen()).not.toMatch(RAW_CODE);
  });

  /** One run of `ochat -p` against `host`: exit 1, nothing on stdout, the words on stderr and no code. */
  async function oneShotFailure(host: string, expected: RegExp[]): Promise<void> {
    const result = await runOchat(['-m', 'llama3.2', '-p', 'hi'], { env: { OLLAMA_HOST: host } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Cannot reach Ollama at ${host}`);
    for (const pattern of expected) expect(result.stderr).toMatch(pattern);
    expect(result.stderr).not.toMatch(LIBRARY_CODE);
    expect(result.stderr).not.toMatch(RAW_CODE);
  }

  test('a self-signed certificate: not trusted, NODE_EXTRA_CA_CERTS', async () => {
    faulty = await startSelfSignedTlsServer();
    await oneShotFailure(faulty.url, [/its TLS certificate is self-signed/, /NODE_EXTRA_CA_CERTS/]);
  });

  test('http:// to an HTTPS server: closed without answering, try https://', async () => {
    faulty = await startSelfSignedTlsServer();
    const plain = faulty.url.replace('https://', 'http://');
    await oneShotFailure(plain, [/closed the connection without answering/, /use https:\/\//]);
  });

  test('a connection reset: closed without answering, is it an Ollama server?', async () => {
    faulty = await startFaultyServer('reset');
    await oneShotFailure(faulty.url, [/closed the connection without answering/, /Is it an Ollama server\?/]);
  });

  test('a server that answers something that is not HTTP', async () => {
    faulty = await startFaultyServer('garbage');
    await oneShotFailure(faulty.url, [/answered something that is not HTTP/, /Is it an Ollama server\?/]);
  });

  test('a host name that does not resolve: named, and where to fix it', async () => {
    // .invalid never resolves (RFC 2606); without any DNS the lookup fails instead, said as such.
    await oneShotFailure('http://nohost.invalid:11434', [
      /no host named 'nohost\.invalid' was found|looking up the name 'nohost\.invalid' failed/,
    ]);
  });
});

describe('a bug outside the main flow (an event handler, a timer)', () => {
  test("ends ochat with one line naming it, not Node's dump of the bundle's minified source, and gives the terminal back", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ochat-e2e-bug-'));
    dirs.push(dir);
    // A stand-in for a bug: thrown from a callback (as Ink's useInput threw on Ctrl+F1), on a signal.
    const preload = join(dir, 'throw-on-usr2.cjs');
    writeFileSync(
      preload,
      "process.on('SIGUSR2', () => setImmediate(() => { throw new TypeError('a bug in a callback'); }));\n",
    );
    run = await startChat({ pty: { nodeArgs: ['--require', preload] } });
    process.kill(run.pty.pid, 'SIGUSR2');
    expect(await run.pty.exited).toBe(1);
    const screen = run.pty.screen();
    expect(screen).toContain('ochat: unexpected error: a bug in a callback');
    // Node printed the throwing line of code (of dist/, one minified line of thousands of
    // characters) and a stack trace.
    expect(screen).not.toMatch(/throw-on-usr2\.cjs|^\s+at /m);
    const raw = run.pty.raw();
    expect(raw.lastIndexOf('\x1b[?2004l')).toBeGreaterThan(raw.lastIndexOf('\x1b[?2004h'));
  });
});

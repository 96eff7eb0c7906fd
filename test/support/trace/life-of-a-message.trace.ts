/**
 * The walk of docs/ARCHITECTURE.md's "life of a message", measured: one plain message to a warm
 * model, from `ChatController.submit` to the request leaving through `ollama/http-fetch.ts`, with
 * the real parts (the Ollama client against the emulator, the session file and the state file
 * open). Prints each step and the counts. Run: `npx vitest run -c vitest.trace.config.ts`.
 * (The editor's part, from the key to `submit`, runs in Ink and is traced by hand.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ChatController } from '../../../src/chat/chat-controller.js';
import { AppState } from '../../../src/config/app-state.js';
import { OllamaClient } from '../../../src/ollama/client.js';
import { SessionStore } from '../../../src/sessions/session-store.js';
import { testControllerDeps } from '../controller-deps.js';
import { startEmulator } from '../emulator.js';
import { recordEntries, walk } from './file-walk.js';

const recorder = recordEntries(`${resolve(import.meta.dirname, '../../../src')}/`);
const dir = mkdtempSync(join(tmpdir(), 'ochat-trace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('walks one plain message from submit to the request leaving', async () => {
  const emu = await startEmulator({
    models: [{ name: 'tiny:latest', size: 1e9, trainedContext: 8192 }],
    tokensPerSecond: Number.POSITIVE_INFINITY,
  });
  try {
    const appState = new AppState({ cwd: join(dir, 'state') });
    const controller = new ChatController(
      testControllerDeps(new OllamaClient({ host: emu.url }), dir, {
        flags: { model: 'tiny' },
        sessions: new SessionStore(join(dir, 'sessions')),
        appState,
      }),
    );
    await controller.start();
    await appState.open();
    // A first exchange: the model is warm, the session file open, the meter has the server's count.
    emu.enqueue({ content: 'Hi!' });
    await controller.submit('first');
    await controller.idle();
    emu.enqueue({ content: 'Hi again!' });
    recorder.start();
    await controller.submit('hello');
    recorder.stop();
    await controller.idle();
    const { steps, files, backs } = walk(recorder.entries, 'chat/chat-controller.ts', 'ollama/http-fetch.ts');
    const lines = steps.map((step, i) => `${i + 1}. ${step.back ? '↩ ' : ''}${step.file} — ${step.fn}`);
    console.log(
      [
        ...lines,
        `${files.size} files (chat-controller.ts included), ${steps.length} moves, ${backs} back`,
      ].join('\n'),
    );
    expect(steps.at(-1)?.file).toBe('ollama/http-fetch.ts');
  } finally {
    await emu.close();
  }
});

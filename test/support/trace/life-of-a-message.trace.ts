/**
 * The walk of docs/ARCHITECTURE.md's "life of a message", measured: one plain message to a warm
 * model, from `ChatController.submit` to the request leaving through `ollama/http-fetch.ts`, with
 * the real parts (the Ollama client against the emulator, the session file and the state file
 * open). Prints each step and the counts, and fails when the document's steps from `submit` on or
 * its totals differ from the walk, so the document stays true to the code. Run by `npm test`, or
 * alone, printing the walk: `OCHAT_TRACE=1 npx vitest run -c vitest.trace.config.ts`. (The editor's part, from the key to `submit`,
 * runs in Ink and is traced by hand.)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it, onTestFailed } from 'vitest';
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
    // The walk is printed when asked for (OCHAT_TRACE=1) or when the document no longer matches it.
    const print = () =>
      console.log(
        [
          ...lines,
          `${files.size} files (chat-controller.ts included), ${steps.length} moves, ${backs} back`,
        ].join('\n'),
      );
    if (process.env.OCHAT_TRACE === '1') print();
    onTestFailed(print);
    expect(steps.at(-1)?.file).toBe('ollama/http-fetch.ts');

    const doc = documentedWalk();
    expect(doc.measured, 'docs/ARCHITECTURE.md: steps from chat/chat-controller.ts on').toEqual(
      steps.map((step) => `${step.back ? '↩ ' : ''}${step.file}`),
    );
    // Step 1 is where the walk starts (Ink hands over the key), not a move between files.
    const handMoves = doc.firstMeasured - 2;
    const handFiles = new Set(doc.byHand.map((line) => line.replace('↩ ', '')));
    handFiles.delete('chat/chat-controller.ts');
    const handBacks = doc.byHand.filter((line) => line.startsWith('↩ ')).length;
    expect(doc.totals, 'docs/ARCHITECTURE.md: the totals after the steps').toEqual({
      files: files.size + handFiles.size,
      moves: steps.length + handMoves,
      backs: backs + handBacks,
    });
  } finally {
    await emu.close();
  }
});

/** The "life of a message" steps of docs/ARCHITECTURE.md: those traced by hand, then the measured. */
function documentedWalk() {
  const text = readFileSync(resolve(import.meta.dirname, '../../../docs/ARCHITECTURE.md'), 'utf8');
  const section = text.slice(
    text.indexOf('## The life of a message'),
    text.indexOf('## The life of a chunk'),
  );
  const steps = [...section.matchAll(/^(\d+)\. (↩ )?`([^`]+)`/gm)].map((m) => ({
    n: Number(m[1]),
    step: `${m[2] ?? ''}${m[3]}`,
  }));
  const firstMeasured = steps.findIndex((s) => s.step === 'chat/chat-controller.ts') + 2;
  const totals = section.match(/(\d+) files entered, (\d+) moves, (\d+) of them back/);
  return {
    byHand: steps.filter((s) => s.n < firstMeasured).map((s) => s.step),
    measured: steps.filter((s) => s.n >= firstMeasured).map((s) => s.step),
    firstMeasured,
    totals: totals && { files: Number(totals[1]), moves: Number(totals[2]), backs: Number(totals[3]) },
  };
}

/**
 * What a test against the real llama.cpp server needs: the built binary and the tiny model,
 * both made once and cached. Run directly (`node --import tsx test/support/llama-server/prepare.ts`)
 * it prepares them and prints their paths: `.ci/run` does so before the tests, so no test waits
 * for a build.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureLlamaServer, llamaServerDir, llamaSourceDir } from './build.js';
import { tinyModelGguf } from './tiny-model.js';

/** The vocab-only GGUF of llama.cpp's source whose tokenizer the tiny model carries (SPM, 32k tokens). */
const VOCAB = join('models', 'ggml-vocab-phi-3.gguf');
/** Bump when tinyModelGguf changes, so cached models are written anew. */
const MODEL_NAME = 'ochat-tiny-v1.gguf';

/** The files a llama-server test starts from. */
export interface LlamaServerFiles {
  binary: string;
  model: string;
}

/** The tiny model's path, written first if it is not cached (deterministic: the same bytes everywhere). */
export function ensureTinyModel(env: NodeJS.ProcessEnv = process.env): string {
  const dir = join(llamaServerDir(env), 'models');
  const model = join(dir, MODEL_NAME);
  if (existsSync(model)) return model;
  mkdirSync(dir, { recursive: true });
  const bytes = tinyModelGguf(readFileSync(join(llamaSourceDir(env), VOCAB)));
  const partial = `${model}.${process.pid}.partial`;
  writeFileSync(partial, bytes);
  renameSync(partial, model);
  return model;
}

/** Builds the server if needed, then writes the model if needed. */
export async function prepareLlamaServer(onBuild?: (message: string) => void): Promise<LlamaServerFiles> {
  const binary = await ensureLlamaServer(onBuild);
  return { binary, model: ensureTinyModel() };
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const files = await prepareLlamaServer((message) => process.stderr.write(`${message}\n`));
  process.stdout.write(`llama-server: ${files.binary}\nmodel: ${files.model}\n`);
}

/**
 * Vitest global setup: prepares the real llama.cpp server (a build of minutes, once per machine)
 * before any test file runs, so no test times out waiting for it. Where it cannot be built (no
 * cmake or C++ compiler) the tests that need it skip, and this says why — unless
 * OCHAT_LLAMA_SERVER=required (set by `.ci/run`), which makes that a failure. OCHAT_LLAMA_SERVER=skip
 * skips them without building (a developer's quick run on a machine that has not built it yet).
 */
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import { LlamaServerUnavailable } from './build.js';
import { type LlamaServerFiles, prepareLlamaServer } from './prepare.js';

/** What the global setup hands the test files: the files, or why the tests skip. */
export type LlamaServerSetup =
  | { files: LlamaServerFiles; skip?: undefined }
  | { files?: undefined; skip: string };

declare module 'vitest' {
  export interface ProvidedContext {
    llamaServer: LlamaServerSetup;
  }
}

/** `required`: the llama-server tests fail where it cannot be built; `skip`: they skip without building. */
const MODE_VARIABLE = 'OCHAT_LLAMA_SERVER';

export default async function setup(project: TestProject): Promise<void> {
  const mode = process.env[MODE_VARIABLE];
  const required = mode === 'required';
  const say = (message: string) => process.stderr.write(`llama-server: ${message}\n`);
  if (mode === 'skip') {
    const skip = `${MODE_VARIABLE}=skip: the tests against a real llama.cpp server are SKIPPED`;
    say(skip);
    project.provide('llamaServer', { skip });
    return;
  }
  try {
    project.provide('llamaServer', { files: await prepareLlamaServer(say) });
  } catch (error) {
    if (required || !(error instanceof LlamaServerUnavailable)) throw error;
    const skip = `${error.message}; the tests against a real llama.cpp server are SKIPPED (install cmake and a C++ compiler to run them)`;
    say(skip);
    project.provide('llamaServer', { skip });
  }
}

/** The global setup's answer in a test file: `describe.skipIf(!llama.files)`. */
export function llamaServerSetup(): LlamaServerSetup {
  return inject('llamaServer') ?? { skip: 'the llama-server global setup did not run' };
}

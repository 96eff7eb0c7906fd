import { expect } from 'vitest';
import { OllamaError } from '../../src/ollama/errors.js';

/** Awaits `work`, expecting it to reject with an OllamaError, and returns that error. */
export async function ollamaFailure(work: Promise<unknown>): Promise<OllamaError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OllamaError);
  return error as OllamaError;
}

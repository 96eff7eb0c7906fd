/**
 * The Ollama layer's errors, in one import: the typed errors (error-types.ts) and the mapping of
 * whatever the npm client, fetch or the stream threw onto them (map-error.ts).
 */
export * from './error-types.js';
export { type ErrorContext, mapOllamaError } from './map-error.js';

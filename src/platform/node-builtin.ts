import type * as FsPromises from 'node:fs/promises';
import { createRequire } from 'node:module';

// Node's own modules that most runs never use are required on first use, not imported: an import
// loads them with the bundle chunk that holds it, before any request or frame, on every start
// (node:crypto, child_process and worker_threads load at once otherwise). On
// Node 22 an import also builds an ESM facade that reads every export: node:http's loads undici.
const require = createRequire(import.meta.url);

/** Node's built-in module `name`, loaded by the first call: `nodeBuiltin<typeof Crypto>('node:crypto')`. */
export function nodeBuiltin<T>(name: `node:${string}`): T {
  return require(name) as T;
}

/**
 * node:fs/promises, loaded by the first call: a one-shot without instruction files reads no file
 * asynchronously before its first byte, and loading it there cost ~1 ms.
 */
export function fsPromises(): typeof FsPromises {
  return nodeBuiltin<typeof FsPromises>('node:fs/promises');
}

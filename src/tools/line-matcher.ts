import type * as WorkerThreads from 'node:worker_threads';
import type { Worker } from 'node:worker_threads';
import { nodeBuiltin } from '../platform/node-builtin.js';

/** Why matching stopped before it finished: the user cancelled, or the pattern ran past the limit. */
export class MatchingStopped extends Error {
  constructor(readonly reason: 'cancelled' | 'too slow') {
    super(reason === 'cancelled' ? 'matching was cancelled' : 'matching took too long');
    this.name = 'MatchingStopped';
  }
}

/**
 * The worker's whole program. A regular expression cannot be interrupted on the thread that runs
 * it, and a catastrophic one (`(a+)+$` over a long line) runs for ages: on its own thread it can be
 * terminated. Kept as source text (an `eval` worker) so the bundle needs no second entry file.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const regex = new RegExp(workerData.source, workerData.flags);
parentPort.on('message', ({ files, limit }) => {
  const matches = [];
  for (let f = 0; f < files.length && matches.length < limit; f++) {
    const lines = files[f];
    for (let i = 0; i < lines.length && matches.length < limit; i++) {
      if (regex.test(lines[i])) matches.push([f, i]);
    }
  }
  parentPort.postMessage(matches);
});
`;

/**
 * Tests lines against one regular expression on a worker thread, so that a pattern too slow to
 * finish is stopped (`MatchingStopped('too slow')` after `timeLimitMs` in all) and Ctrl+C
 * (`signal`) frees the app at once, instead of a regex holding the event loop forever.
 */
export class LineMatcher {
  private readonly worker: Worker;
  private readonly stopped: Promise<never>;
  private stop: (reason: MatchingStopped) => void = () => {};
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = () => this.stop(new MatchingStopped('cancelled'));

  constructor(
    regex: RegExp,
    timeLimitMs: number,
    private readonly signal?: AbortSignal,
  ) {
    const { Worker } = nodeBuiltin<typeof WorkerThreads>('node:worker_threads');
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { source: regex.source, flags: regex.flags.replace(/[gy]/g, '') },
    });
    this.worker.unref();
    this.stopped = new Promise<never>((_, reject) => {
      this.stop = (reason) => {
        void this.worker.terminate();
        reject(reason);
      };
    });
    this.stopped.catch(() => {});
    this.worker.once('error', (error) => this.stop(error as MatchingStopped));
    this.timer = setTimeout(() => this.stop(new MatchingStopped('too slow')), timeLimitMs);
    signal?.addEventListener('abort', this.onAbort, { once: true });
    if (signal?.aborted) this.onAbort();
  }

  /**
   * Where the lines of `files` (each a list of lines) match: `[file, line]` index pairs in order,
   * at most `limit` of them. Files are sent in batches: one round trip to the worker for many.
   */
  match(files: string[][], limit: number): Promise<[number, number][]> {
    const reply = new Promise<[number, number][]>((resolve) => this.worker.once('message', resolve));
    this.worker.postMessage({ files, limit });
    return Promise.race([reply, this.stopped]);
  }

  /** Ends the worker; call once the search is over, however it ended. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
    await this.worker.terminate();
  }
}

/**
 * Records the calls into `src/` files that trace-entries.ts announces, and turns them into the walk
 * docs/ARCHITECTURE.md's "life of a message" counts: each step is a call into another file, or a
 * return into a file that then calls another (↩ when the file was already left). Calls that only
 * read a value are not steps (READS): the builder's key checks, the clock, the store's `get`.
 */

/** One call: the function, its file, and the nearest `src/` file below it on the stack. */
export interface Entry {
  file: string;
  caller: string | undefined;
  fn: string;
}

/** Functions called only to read a value (and whatever they call): not steps. */
const READS = new Set([
  'requests.mcpSettled',
  'ModelSettings.systemSections',
  'ModelSettings.systemInForce',
  'renderPinsSection',
  'Conversation.now',
  'Object.get',
]);

export function recordEntries(srcDir: string): { entries: Entry[]; start(): void; stop(): void } {
  const entries: Entry[] = [];
  let on = false;
  const inSrc = (frame: string) => {
    const at = frame.indexOf(srcDir);
    return at < 0 ? undefined : frame.slice(at + srcDir.length).replace(/:\d+:\d+\)?$/, '');
  };
  (globalThis as { __ochatTrace?: () => void }).__ochatTrace = () => {
    if (!on) return;
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 100;
    // [0] "Error", [1] this function, [2] the function entered, then its callers.
    const frames = (new Error().stack ?? '').split('\n').slice(2);
    Error.stackTraceLimit = limit;
    const file = frames[0] && inSrc(frames[0]);
    if (!file) return;
    const fn = frames[0]
      .trim()
      .replace(/^at (async )?/, '')
      .replace(/ \(.*$/, '')
      .replace(srcDir, '');
    const caller = frames.slice(1).map(inSrc).find(Boolean);
    entries.push({ file, caller, fn });
  };
  return {
    entries,
    start: () => {
      on = true;
    },
    stop: () => {
      on = false;
    },
  };
}

export interface Walk {
  steps: { back: boolean; file: string; fn: string }[];
  files: Set<string>;
  backs: number;
}

/** The walk from `startFile` until `endFile` is entered. */
export function walk(entries: readonly Entry[], startFile: string, endFile: string): Walk {
  let current = startFile;
  const files = new Set([current]);
  const left = new Set<string>();
  const steps: Walk['steps'] = [];
  const move = (file: string, fn: string) => {
    left.add(current);
    const back = left.has(file);
    current = file;
    files.add(file);
    steps.push({ back, file, fn });
  };
  for (const entry of entries) {
    // The meter asks the plan for its estimate through a closure the builder gave it: a read.
    const estimateRead = entry.caller === 'conversation/context-meter.ts' && entry.file !== entry.caller;
    if (READS.has(entry.fn) || estimateRead) continue;
    if (entry.caller && entry.caller !== current) move(entry.caller, `then ${entry.fn}`);
    if (entry.file !== current) move(entry.file, entry.fn);
    if (current === endFile) break;
  }
  return { steps, files, backs: steps.filter((step) => step.back).length };
}

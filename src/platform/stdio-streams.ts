// Node creates process.stdin, stdout and stderr on first use, and creating one on a terminal loads
// node:tty and node:net (~3 ms CPU on Node 20): what must hold for every write or error of a
// stream is set up as the stream is created, so that a run that has not used it yet pays nothing.

type StdioName = 'stdin' | 'stdout' | 'stderr';

/** Per stream: the set-ups waiting for its creation, or the stream once created here. */
const watched = new Map<
  StdioName,
  { stream?: NodeJS.Process[StdioName]; setUps: ((stream: never) => void)[] }
>();

/**
 * Runs `setUp` on process[`name`] as it is created (set-ups run in the order given), or at once
 * when it was created since the first call.
 */
export function onStdioStream<Name extends StdioName>(
  name: Name,
  setUp: (stream: NodeJS.Process[Name]) => void,
): void {
  const known = watched.get(name);
  if (known?.stream !== undefined) {
    setUp(known.stream as NodeJS.Process[Name]);
    return;
  }
  if (known) {
    known.setUps.push(setUp);
    return;
  }
  const descriptor = Object.getOwnPropertyDescriptor(process, name);
  const create = descriptor?.get;
  if (!create || !descriptor.configurable) {
    setUp(process[name]);
    return;
  }
  const entry: { stream?: NodeJS.Process[Name]; setUps: ((stream: NodeJS.Process[Name]) => void)[] } = {
    setUps: [setUp],
  };
  watched.set(name, entry as never);
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: descriptor.enumerable,
    get() {
      if (entry.stream === undefined) {
        const stream = create.call(process) as NodeJS.Process[Name];
        entry.stream = stream;
        for (const each of entry.setUps.splice(0)) each(stream);
      }
      return entry.stream;
    },
  });
}

import type { CliFlags } from './flags.js';

/** The flags a common command line may hold, each at most once and with a plain value. */
const COMMON_FLAGS: Record<string, 'model' | 'print'> = {
  '-m': 'model',
  '--model': 'model',
  '-p': 'print',
  '--print': 'print',
};

/**
 * The command lines most runs use — `ochat`, `ochat -m NAME`, `ochat -p PROMPT` and both (either
 * spelling, any order) — read without commander; undefined for anything else, which commander
 * reads (see command-line.ts). Gives what commander gives for them.
 */
export function parseCommonArgs(args: string[]): CliFlags | undefined {
  if (args.length % 2 !== 0) return undefined;
  const flags: CliFlags = {};
  for (let i = 0; i < args.length; i += 2) {
    const key = COMMON_FLAGS[args[i]];
    const value = args[i + 1];
    if (!key || key in flags || value === '' || value.startsWith('-')) return undefined;
    flags[key] = value;
  }
  return flags;
}

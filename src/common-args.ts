import type { CliFlags } from './settings.js';

/**
 * The command lines most runs use, `ochat` and `ochat -m NAME` (or `--model NAME`), read without
 * commander; undefined for anything else, which commander reads (see command-line.ts). Gives what
 * commander gives for them.
 */
export function parseCommonArgs(args: string[]): CliFlags | undefined {
  if (args.length === 0) return {};
  const [flag, value] = args;
  if (args.length === 2 && (flag === '-m' || flag === '--model') && value !== '' && !value.startsWith('-')) {
    return { model: value };
  }
  return undefined;
}

import { CommandUsageError, type SlashCommand } from '../command.js';
import { switchToModel } from './model.js';

/**
 * Whether a `/load` argument names a saved-session file rather than a model: it ends in `.json`
 * or `.jsonl`, or starts like a path (`/`, `./`, `../`, `~/`). Model names never do (`hf.co/org/m`
 * has a slash, but not at the start).
 */
export function isSessionFileArgument(arg: string): boolean {
  return /\.jsonl?$/i.test(arg) || /^(\/|\.\.?\/|~\/)/.test(arg);
}

/** `/load <model>`: `ollama run`'s way to switch models. */
export const loadCommand: SlashCommand = {
  name: 'load',
  summary: 'Switch to another model (as in ollama run)',
  usage: '/load <model>',
  async run(host, args) {
    if (!args) throw new CommandUsageError('/load needs a model name (/model lists them).');
    if (isSessionFileArgument(args)) {
      throw new CommandUsageError(`"${args}" looks like a file path, not a model name.`);
    }
    await switchToModel(host, args);
  },
};

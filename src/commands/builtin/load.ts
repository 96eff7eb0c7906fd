import { CommandUsageError, type SlashCommand } from '../command.js';
import { pathArgument } from '../path-argument.js';
import { completeModelName, switchToModel } from './model.js';

/**
 * Whether a `/load` argument names a saved-session file rather than a model: it ends in `.json`
 * or `.jsonl`, or starts like a path (`/`, `./`, `../`, `~/`). Model names never do (`hf.co/org/m`
 * has a slash, but not at the start).
 */
export function isSessionFileArgument(arg: string): boolean {
  return /\.jsonl?$/i.test(arg) || /^(\/|\.\.?\/|~\/)/.test(arg);
}

/**
 * `/load <model>`: `ollama run`'s way to switch models; `/load <file.json>`: imports a session
 * export (`/save x.json`) as a new session and continues it.
 */
export const loadCommand: SlashCommand = {
  name: 'load',
  summary: 'Switch to another model (as in ollama run), or import a /save .json export as a new session',
  usage: '/load <model|file.json>',
  completion: completeModelName,
  async run(host, args) {
    if (!args) throw new CommandUsageError('/load needs a model name (/model lists them) or a .json export.');
    const path = pathArgument(args);
    if (isSessionFileArgument(path)) {
      await host.sessions.load(path);
      return;
    }
    await switchToModel(host, args);
  },
};

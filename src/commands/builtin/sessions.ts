import { CommandUsageError, type SlashCommand } from '../command.js';
import { pathArgument } from '../path-argument.js';

/** `/sessions`: the saved sessions, newest first (the current one starred). */
export const sessionsCommand: SlashCommand = {
  name: 'sessions',
  summary: 'List the saved sessions',
  usage: '/sessions',
  run(host) {
    host.sessions.list();
  },
};

/** `/resume <id|name>`: continues a saved session. */
export const resumeCommand: SlashCommand = {
  name: 'resume',
  summary: 'Continue a saved session (see /sessions)',
  usage: '/resume <id|name>',
  async run(host, args) {
    if (!args) throw new CommandUsageError('Name the session to resume (/sessions lists them).');
    await host.sessions.resume(args);
  },
};

/** `/rename <name>`: names the current session, so `--resume <name>` finds it. */
export const renameCommand: SlashCommand = {
  name: 'rename',
  summary: 'Name the current session',
  usage: '/rename <name>',
  run(host, args) {
    if (!args) throw new CommandUsageError('Give the session a name.');
    host.sessions.rename(args);
  },
};

/** `/delete <id|name>`: deletes a saved session, after asking. */
export const deleteCommand: SlashCommand = {
  name: 'delete',
  summary: 'Delete a saved session (asks first)',
  usage: '/delete <id|name>',
  async run(host, args) {
    if (!args) throw new CommandUsageError('Name the session to delete (/sessions lists them).');
    await host.sessions.delete(args);
  },
};

/** `/save <file>`: exports the session as Markdown (.md) or JSON (.json). */
export const saveCommand: SlashCommand = {
  name: 'save',
  summary: 'Export the session to a .md or .json file',
  usage: '/save <file.md|file.json>',
  run(host, args) {
    if (!args) throw new CommandUsageError('Give a file name ending in .md or .json.');
    host.sessions.save(pathArgument(args));
  },
};

/** `/history`: the whole transcript, what compaction summarized and every compaction attempt. */
export const historyCommand: SlashCommand = {
  name: 'history',
  summary: 'Show the whole session, compacted parts and compaction attempts included',
  usage: '/history',
  run(host) {
    host.sessions.history();
  },
};

/** `/uncompact`: puts the view from before the last compaction back, when it still fits. */
export const uncompactCommand: SlashCommand = {
  name: 'uncompact',
  summary: 'Undo the last compaction (when the old view still fits)',
  usage: '/uncompact',
  run(host) {
    host.sessions.uncompact();
  },
};

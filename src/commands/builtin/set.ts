import { describeKeepAlive, KEEP_ALIVE_FORMS, toKeepAlive } from '../../config/keep-alive.js';
import { OLLAMA_OPTIONS } from '../../config/ollama-option-table.js';
import { CommandUsageError, type CompletionEntry, type SlashCommand, wordsBefore } from '../command.js';
import type { CommandHost } from '../command-host.js';
import { describeNumCtxSource } from '../num-ctx-source.js';
import { setThinking } from './think.js';

/** The value that returns an option to the model's default: `/set temperature default`. */
export const DEFAULT_WORD = 'default';

/** Every option with what it does, for Tab. */
function optionEntries(): CompletionEntry[] {
  return Object.entries(OLLAMA_OPTIONS).map(([value, spec]) => ({ value, summary: spec.description }));
}

/** Tab after `/set `: the options and `ollama run`'s words, then `default` after an option. */
function completeSet(args: string): CompletionEntry[] {
  const before = wordsBefore(args).map((word) => word.toLowerCase());
  if (before.length === 0) {
    return [
      ...optionEntries(),
      { value: 'system', summary: 'set the system prompt' },
      { value: 'keep_alive', summary: 'how long Ollama keeps the model loaded: 30m, 2h, -1 (forever)' },
      { value: 'parameter', summary: 'as in ollama run: /set parameter <option> <value>' },
    ];
  }
  if (before.length === 1 && before[0] === 'parameter') return optionEntries();
  const option = before[0] === 'parameter' ? before[1] : before[0];
  const optionDone = before.length === (before[0] === 'parameter' ? 2 : 1);
  if (optionDone && Object.hasOwn(OLLAMA_OPTIONS, option))
    return [{ value: DEFAULT_WORD, summary: "back to the model's default" }];
  return [];
}

/** `/set` alone: every option that is really in force, and where it comes from. */
function listInForce(host: CommandHost, known: readonly string[]): string {
  const rows: [string, string, string][] = [];
  if (host.model.numCtx !== undefined) {
    const source = describeNumCtxSource(host.model.numCtxSource, host.model.info);
    rows.push(['num_ctx', String(host.model.numCtx), source]);
  }
  for (const [name, value] of Object.entries(host.options.values)) {
    if (name !== 'num_ctx') rows.push([name, JSON.stringify(value), host.options.source(name)]);
  }
  if (host.options.keepAlive !== undefined)
    rows.push(['keep_alive', JSON.stringify(host.options.keepAlive), 'config or /set']);
  // The Modelfile's own parameters apply where nothing above replaces them.
  for (const { name, value } of host.model.info?.parameters ?? []) {
    if (name !== 'num_ctx' && !Object.hasOwn(host.options.values, name))
      rows.push([name, value, 'Modelfile']);
  }
  const nameWidth = Math.max(...rows.map(([name]) => name.length));
  const valueWidth = Math.max(...rows.map(([, value]) => value.length));
  const lines = rows.map(
    ([name, value, source]) => `  ${name.padEnd(nameWidth)}  ${value.padEnd(valueWidth)}  (${source})`,
  );
  return [
    `In force${host.model.name ? ` for ${host.model.name}` : ''}:`,
    ...(lines.length ? lines : ['  (nothing yet: no model is connected)']),
    '',
    `Settable: ${known.join(', ')}`,
    `/set <option> ${DEFAULT_WORD} returns an option to the model's default.`,
  ].join('\n');
}

/** `/set keep_alive <value>`: how long Ollama keeps the model loaded, sent with every request. */
function setKeepAlive(host: CommandHost, text: string): void {
  const value = text.trim();
  const server = host.model.server;
  if (server?.api === 'openai') {
    host.screen.notice(
      'info',
      `keep_alive is Ollama's: ${server.name} keeps its model loaded while it runs, so nothing is set or sent.`,
    );
    return;
  }
  if (!value) throw new CommandUsageError(`/set keep_alive needs ${KEEP_ALIVE_FORMS}.`);
  if (value.toLowerCase() === DEFAULT_WORD) {
    host.options.setKeepAlive(undefined);
    host.screen.notice('success', "keep_alive is back to the server's default.");
    return;
  }
  const keepAlive = toKeepAlive(value);
  if (keepAlive === undefined) throw new CommandUsageError(`keep_alive must be ${KEEP_ALIVE_FORMS}.`);
  host.options.setKeepAlive(keepAlive);
  host.screen.notice(
    'success',
    `keep_alive = ${JSON.stringify(keepAlive)} (${describeKeepAlive(keepAlive)})`,
  );
}

/**
 * `/set <option> <value>` sets an Ollama option (`default` unsets it); `/set` alone lists what
 * is in force. `ollama run`'s forms work too: `/set parameter <name> <value>`, `/set system
 * <text>`, `/set think`, `/set nothink`.
 */
export const setCommand: SlashCommand = {
  name: 'set',
  summary: 'Set an Ollama option (`default` unsets it) or the system prompt; alone: list what is in force',
  usage: '/set <option> <value>',
  completion: (_context, args) => completeSet(args),
  async run(host, args) {
    // The option table carries its validators; load it only when /set is used (start-up time).
    const { OLLAMA_OPTION_NAMES, parseOllamaOption, unknownOptionError } = await import(
      '../../config/ollama-options.js'
    );
    if (!args) {
      host.screen.show(listInForce(host, OLLAMA_OPTION_NAMES));
      return;
    }
    const [first, ...restWords] = args.split(/\s+/);
    const keyword = first.toLowerCase();
    if (keyword === 'system') {
      const text = args.slice(first.length).trim();
      if (!text)
        throw new CommandUsageError('/set system needs the text of the prompt (/system clear removes it).');
      host.model.setSystem(text);
      host.screen.notice('success', 'System prompt set.');
      return;
    }
    if (keyword === 'keep_alive') {
      setKeepAlive(host, restWords.join(' '));
      return;
    }
    if ((keyword === 'think' || keyword === 'nothink') && restWords.length === 0) {
      setThinking(host, keyword === 'think');
      return;
    }
    const optionArgs = keyword === 'parameter' ? args.slice(first.length).trim() : args;
    const match = /^(\S+)(?:\s+([\s\S]+))?$/.exec(optionArgs);
    if (!match?.[2]) throw new CommandUsageError(`/set needs an option and a value.`);
    const [, name, value] = match;
    if (value.trim().toLowerCase() === DEFAULT_WORD) {
      const unknown = unknownOptionError(name);
      if (unknown) throw new CommandUsageError(unknown);
      host.options.unset(name);
      host.screen.notice('success', `${name} is back to the model's default.`);
      return;
    }
    const parsed = parseOllamaOption(name, value.trim());
    if (!parsed.ok) throw new CommandUsageError(parsed.error);
    const inForce = host.options.set(parsed.name, parsed.value);
    if (inForce === undefined) return;
    host.screen.notice('success', `${parsed.name} = ${JSON.stringify(inForce)}`);
  },
};

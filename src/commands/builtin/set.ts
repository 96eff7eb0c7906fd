import { CommandUsageError, type SlashCommand } from '../command.js';

/** `/set <option> <value>`: sets any Ollama option; `/set` alone shows those in force. */
export const setCommand: SlashCommand = {
  name: 'set',
  summary: 'Set an Ollama option (temperature, top_p, num_ctx, seed, …); /set alone lists them',
  usage: '/set <option> <value>',
  async run(host, args) {
    // The option table carries its validators; load it only when /set is used (start-up time).
    const { OLLAMA_OPTIONS, parseOllamaOption } = await import('../../config/ollama-options.js');
    if (!args) {
      const entries = Object.entries(host.options);
      const inForce = entries.length
        ? entries.map(([k, v]) => `  ${k} = ${JSON.stringify(v)}`)
        : ['  (none besides the model defaults)'];
      const known = Object.keys(OLLAMA_OPTIONS).join(', ');
      host.show(['Options in force:', ...inForce, '', `Settable: ${known}`].join('\n'));
      return;
    }
    const match = /^(\S+)\s+([\s\S]+)$/.exec(args);
    if (!match) throw new CommandUsageError(`/set needs an option and a value.`);
    const parsed = parseOllamaOption(match[1], match[2].trim());
    if (!parsed.ok) throw new CommandUsageError(parsed.error);
    const inForce = await host.setOption(parsed.name, parsed.value);
    host.notice('success', `${parsed.name} = ${JSON.stringify(inForce)}`);
  },
};

import { CommandUsageError, type SlashCommand, wordsBefore } from '../command.js';

/** `/tools [on|off <name>]`: lists the tools with their state, or turns one on or off. */
export const toolsCommand: SlashCommand = {
  name: 'tools',
  summary: 'List tools, or turn one on/off',
  usage: '/tools [on|off <name>]',
  completion(context, args) {
    const before = wordsBefore(args);
    if (before.length === 0) return [{ value: 'on' }, { value: 'off' }];
    if (before.length === 1 && (before[0] === 'on' || before[0] === 'off'))
      return context.tools.map((tool) => ({ value: tool.name, summary: tool.description }));
    return [];
  },
  run(host, args) {
    if (!args) {
      const tools = host.tools();
      const width = Math.max(...tools.map((t) => t.name.length));
      host.show(
        [
          'Tools:',
          ...tools.map(
            (t) =>
              `  ${t.enabled ? '●' : '○'} ${t.name.padEnd(width)}  ${t.description}${t.needsConfirmation ? ' (asks first)' : ''}`,
          ),
        ].join('\n'),
      );
      return;
    }
    const match = /^(on|off)\s+(\S+)$/.exec(args);
    if (!match) throw new CommandUsageError(`Expected "on <name>" or "off <name>".`);
    const on = match[1] === 'on';
    if (!host.setToolEnabled(match[2], on)) {
      const names = host
        .tools()
        .map((t) => t.name)
        .join(', ');
      throw new CommandUsageError(`No tool named "${match[2]}" (tools: ${names}).`);
    }
    host.notice('success', `${match[2]} ${on ? 'enabled' : 'disabled'}.`);
  },
};

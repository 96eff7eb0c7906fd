import type { ThinkSetting } from '../../backend/interfaces.js';
import { CommandUsageError, type SlashCommand, wordsBefore } from '../command.js';

const VALUES: Record<string, ThinkSetting> = {
  on: true,
  off: false,
  low: 'low',
  medium: 'medium',
  high: 'high',
};

/** `/think [on|off|low|medium|high]`: thinking for models that support it. */
export const thinkCommand: SlashCommand = {
  name: 'think',
  summary: 'Turn thinking on or off, or set its effort (thinking models only)',
  usage: '/think [on|off|low|medium|high]',
  completion: (_context, args) =>
    wordsBefore(args).length === 0 ? Object.keys(VALUES).map((value) => ({ value })) : [],
  run(host, args) {
    if (!args) {
      const state = host.model.think === undefined ? 'model default' : describe(host.model.think);
      const support = host.model.supportsThinking
        ? ''
        : ` (${host.model.name ?? 'this model'} does not support thinking)`;
      host.screen.show(`Thinking: ${state}${support}`);
      return;
    }
    const key = args.toLowerCase();
    // Own keys only: `constructor` or `__proto__` must not read Object.prototype.
    const value = Object.hasOwn(VALUES, key) ? VALUES[key] : undefined;
    if (value === undefined) throw new CommandUsageError(`Unknown thinking setting "${args}".`);
    if (!host.model.supportsThinking) {
      host.screen.notice(
        'warning',
        `${host.model.name ?? 'This model'} does not support thinking; the setting is kept for models that do.`,
      );
    }
    host.model.setThink(value);
    host.screen.notice('success', `Thinking: ${describe(value)}`);
  },
};

function describe(value: ThinkSetting): string {
  if (value === true) return 'on';
  if (value === false) return 'off';
  return value;
}

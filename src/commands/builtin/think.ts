import type { ThinkSetting } from '../../backend/interfaces.js';
import { CommandUsageError, type SlashCommand, wordsBefore } from '../command.js';
import type { CommandHost } from '../command-host.js';

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
    setThinking(host, value);
  },
};

/**
 * Sets thinking and says so in one line: a success, or, for a model without thinking, a warning
 * that the setting waits for one that has it (not a warning followed by a success).
 */
export function setThinking(host: CommandHost, value: ThinkSetting): void {
  host.model.setThink(value);
  if (host.model.supportsThinking) host.screen.notice('success', `Thinking: ${describe(value)}`);
  else
    host.screen.notice(
      'warning',
      `${host.model.name ?? 'This model'} does not support thinking: "${describe(value)}" is kept for models that do.`,
    );
}

function describe(value: ThinkSetting): string {
  if (value === true) return 'on';
  if (value === false) return 'off';
  return value;
}

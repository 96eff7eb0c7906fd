import { noModelsAdvice } from '../../backend/chat-backend.js';
import { findInstalledModel, sameModel } from '../../backend/model-name.js';
import { type CompletionContext, type CompletionEntry, type SlashCommand, wordsBefore } from '../command.js';
import type { CommandHost } from '../command-host.js';

/**
 * Switches to the installed model `typed` means (`M1` finds `m1`). When the list cannot be read
 * or has no match, the name goes to the server as typed, whose error lists the installed models.
 */
export async function switchToModel(host: CommandHost, typed: string): Promise<void> {
  const installed = await host.model.list().then(
    (models) => models.map((m) => m.name),
    () => [],
  );
  await host.model.switchTo(findInstalledModel(typed, installed) ?? typed);
}

/** Tab after `/model ` or `/load `: the installed models. */
export function completeModelName(context: CompletionContext, args: string): CompletionEntry[] {
  return wordsBefore(args).length === 0 ? context.models.map((name) => ({ value: name })) : [];
}

/** `/model [name]`: lists the installed models, or switches to one. */
export const modelCommand: SlashCommand = {
  name: 'model',
  summary: 'List installed models, or switch to one',
  usage: '/model [name]',
  completion: completeModelName,
  async run(host, args) {
    if (args) {
      await switchToModel(host, args);
      return;
    }
    const models = await host.model.list();
    if (models.length === 0) {
      host.screen.show(`${noModelsAdvice(host.model.server)}.`);
      return;
    }
    const lines = models.map((m) => {
      const facts = [m.parameterSize, m.quantization].filter(Boolean).join(' ');
      const mark = host.model.name !== undefined && sameModel(m.name, host.model.name) ? '●' : ' ';
      return ` ${mark} ${m.name}${facts ? `  (${facts})` : ''}`;
    });
    host.screen.show(['Installed models (switch with /model <name>):', ...lines].join('\n'));
  },
};

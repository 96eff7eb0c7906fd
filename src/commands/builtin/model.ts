import type { SlashCommand } from '../command.js';

/** `/model [name]`: lists the installed models, or switches to one. */
export const modelCommand: SlashCommand = {
  name: 'model',
  summary: 'List installed models, or switch to one',
  usage: '/model [name]',
  async run(host, args) {
    if (args) {
      await host.switchModel(args);
      return;
    }
    const models = await host.listModels();
    if (models.length === 0) {
      host.show('No models are installed. Install one with `ollama pull llama3.2`.');
      return;
    }
    const lines = models.map((m) => {
      const facts = [m.parameterSize, m.quantization].filter(Boolean).join(' ');
      const mark = m.name === host.model || m.name === `${host.model}:latest` ? '●' : ' ';
      return ` ${mark} ${m.name}${facts ? `  (${facts})` : ''}`;
    });
    host.show(['Installed models (switch with /model <name>):', ...lines].join('\n'));
  },
};

import { CommandUsageError, type SlashCommand } from '../command.js';

/** `/pull <name>`: downloads a model with `ollama pull`'s progress; Ctrl+C stops it (it resumes next time). */
export const pullCommand: SlashCommand = {
  name: 'pull',
  summary: 'Download a model, with progress (Ctrl+C stops; the next pull resumes)',
  usage: '/pull <name>',
  async run(host, args) {
    const name = args.trim();
    if (!name || /\s/.test(name))
      throw new CommandUsageError('/pull needs one model name, e.g. /pull llama3.2.');
    await host.model.pull(name);
  },
};

/** `/ps`: the models loaded at the server, as `ollama ps` lists them (size, CPU/GPU split, window, until). */
export const psCommand: SlashCommand = {
  name: 'ps',
  summary: 'List the loaded models: size, CPU/GPU split, context, until when',
  usage: '/ps',
  async run(host, args) {
    if (args) throw new CommandUsageError('/ps takes no arguments.');
    await host.model.showLoaded();
  },
};

/** `/unload`: frees the chat model at the server now, as `ollama stop` does. */
export const unloadCommand: SlashCommand = {
  name: 'unload',
  summary: 'Free the model from memory now (the next message loads it again)',
  usage: '/unload',
  async run(host, args) {
    if (args) throw new CommandUsageError('/unload takes no arguments.');
    await host.model.unload();
  },
};

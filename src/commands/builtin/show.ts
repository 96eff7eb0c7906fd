import type { ModelInfo, ModelParameter } from '../../backend/interfaces.js';
import { formatTokens } from '../../conversation/format-tokens.js';
import { CommandUsageError, type SlashCommand, wordsBefore } from '../command.js';
import type { CommandHost } from '../command-host.js';

/** What `/show` can print, as in `ollama run`. */
export const SHOW_TOPICS = ['info', 'modelfile', 'parameters', 'system', 'template', 'license'] as const;

type ShowTopic = (typeof SHOW_TOPICS)[number];

/** Lines of a long text kept in `/show info` (the full text has its own topic). */
const INFO_EXCERPT_LINES = 4;

function excerpt(text: string, topic: ShowTopic): string[] {
  const lines = text.trim().split('\n');
  const kept = lines.slice(0, INFO_EXCERPT_LINES).map((line) => `  ${line}`);
  if (lines.length > kept.length) kept.push(`  … ${lines.length - kept.length} more lines (/show ${topic})`);
  return kept;
}

/** Parameters in the server's own text form: the name padded to 30 columns, a space, the value. */
function parameterLines(parameters: readonly ModelParameter[]): string {
  return parameters.map(({ name, value }) => `${name.padEnd(30)} ${value}`).join('\n');
}

function info(host: CommandHost, model: ModelInfo): string {
  const rows: [string, string | undefined][] = [
    ['architecture', model.architecture ?? model.family],
    ['parameters', model.parameterSize],
    ['context length', model.trainedContext === undefined ? undefined : String(model.trainedContext)],
    ['num_ctx in use', host.model.numCtx === undefined ? undefined : formatTokens(host.model.numCtx)],
    ['embedding length', model.embeddingLength === undefined ? undefined : String(model.embeddingLength)],
    ['quantization', model.quantization],
  ];
  const known = rows.filter((row): row is [string, string] => row[1] !== undefined);
  const width = Math.max(...known.map(([label]) => label.length));
  const sections = [
    `Model ${model.name}`,
    ...known.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
    '',
    'Capabilities',
    `  ${model.capabilities.join(', ')}`,
  ];
  if (model.parameters)
    sections.push('', 'Parameters', ...excerpt(parameterLines(model.parameters), 'parameters'));
  if (model.system) sections.push('', 'System', ...excerpt(model.system, 'system'));
  if (model.license) sections.push('', 'License', ...excerpt(model.license, 'license'));
  return sections.join('\n');
}

function parameters(host: CommandHost, model: ModelInfo): string {
  const lines = model.parameters
    ? ['Model defined parameters:', parameterLines(model.parameters)]
    : ['No parameters were specified for this model.'];
  const set = Object.entries(host.options.values);
  // num_ctx chosen by the user (--num-ctx, config, /set) is held by the model, not the options.
  const { numCtx, numCtxSource } = host.model;
  const chosen = numCtxSource === 'flag' || numCtxSource === 'config' || numCtxSource === '/set';
  if (numCtx !== undefined && chosen && !('num_ctx' in host.options.values)) set.push(['num_ctx', numCtx]);
  if (set.length > 0) {
    lines.push(
      '',
      'User defined parameters:',
      ...set.map(([k, v]) => `${k.padEnd(30)} ${JSON.stringify(v)}`),
    );
  }
  return lines.join('\n');
}

/** `/show <topic>`: what the server knows of the model in use, as `ollama run` prints it. */
export const showCommand: SlashCommand = {
  name: 'show',
  summary: "Show the model's info, Modelfile, parameters, system prompt, template or license",
  usage: `/show [${SHOW_TOPICS.join('|')}]`,
  completion: (_context, args) =>
    wordsBefore(args).length === 0 ? SHOW_TOPICS.map((value) => ({ value })) : [],
  run(host, args) {
    const topic = (args || 'info').toLowerCase();
    if (!(SHOW_TOPICS as readonly string[]).includes(topic)) {
      throw new CommandUsageError(`Unknown topic "${args}".`);
    }
    const model = host.model.info;
    if (!model) {
      host.screen.show('No model is connected yet.');
      return;
    }
    switch (topic as ShowTopic) {
      case 'info':
        return host.screen.show(info(host, model));
      case 'parameters':
        return host.screen.show(parameters(host, model));
      case 'modelfile':
        return host.screen.show(model.modelfile ?? 'The server sent no Modelfile for this model.');
      case 'system':
        return host.screen.show(
          model.system
            ? `${host.model.system ? "The model's own system prompt (replaced by yours in this chat):" : 'System prompt of the model:'}\n${model.system}`
            : 'No system message was specified for this model.',
        );
      case 'template':
        return host.screen.show(model.template ?? 'No prompt template was specified for this model.');
      case 'license':
        return host.screen.show(model.license ?? 'No license was specified for this model.');
    }
  },
};

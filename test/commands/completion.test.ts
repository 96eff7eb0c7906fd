import { describe, expect, it } from 'vitest';
import { BUILTIN_COMMANDS } from '../../src/commands/builtin-commands.js';
import { type CompletionContext, wordsBefore } from '../../src/commands/command.js';
import { findCommand } from '../../src/commands/dispatch.js';
import { OLLAMA_OPTION_NAMES } from '../../src/config/ollama-options.js';

const CONTEXT: CompletionContext = {
  models: ['llama3.2:latest', 'qwen3:8b'],
  tools: [
    { name: 'read_file', description: 'Read a file' },
    { name: 'run_command', description: 'Run a command' },
  ],
  approvals: [
    { tool: 'run_command', scope: 'npm test …' },
    { tool: 'write_file', scope: 'notes.md' },
  ],
};

/** The candidate values `/name args` offers for its last word. */
function candidates(name: string, args: string, context = CONTEXT): string[] {
  const command = findCommand(BUILTIN_COMMANDS, name);
  return (command?.completion?.(context, args) ?? []).map((entry) => entry.value);
}

describe('argument completion', () => {
  it('knows which words come before the one being typed', () => {
    expect(wordsBefore('')).toEqual([]);
    expect(wordsBefore('on')).toEqual([]);
    expect(wordsBefore('on ')).toEqual(['on']);
    expect(wordsBefore('parameter top_k 2')).toEqual(['parameter', 'top_k']);
  });

  it('/model and /load: the installed models, for the first word only', () => {
    expect(candidates('model', '')).toEqual(CONTEXT.models);
    expect(candidates('load', 'q')).toEqual(CONTEXT.models);
    expect(candidates('model', 'qwen3 x')).toEqual([]);
  });

  it('/set: the options and ollama run words, then `default` after a known option', () => {
    expect(candidates('set', '')).toEqual([...OLLAMA_OPTION_NAMES, 'system', 'keep_alive', 'parameter']);
    expect(candidates('set', 'parameter ')).toEqual(OLLAMA_OPTION_NAMES);
    expect(candidates('set', 'temperature ')).toEqual(['default']);
    expect(candidates('set', 'parameter top_k d')).toEqual(['default']);
    expect(candidates('set', 'nonsense ')).toEqual([]);
    expect(candidates('set', 'system Be ')).toEqual([]);
  });

  it('/tools: on|off, then the tool names; /think: its values; /show: its topics', () => {
    expect(candidates('tools', '')).toEqual(['on', 'off', 'revoke']);
    expect(candidates('tools', 'off re')).toEqual(['read_file', 'run_command']);
    expect(candidates('tools', 'maybe ')).toEqual([]);
    expect(candidates('tools', 'revoke ')).toEqual(['1', '2', 'all']);
    const summaries = findCommand(BUILTIN_COMMANDS, 'tools')
      ?.completion?.(CONTEXT, 'revoke ')
      .map((entry) => entry.summary);
    expect(summaries).toEqual(['run_command npm test …', 'write_file notes.md', 'every approval']);
    expect(candidates('tools', 'revoke ', { ...CONTEXT, approvals: [] })).toEqual([]);
    expect(candidates('think', '')).toEqual(['on', 'off', 'low', 'medium', 'high']);
    expect(candidates('show', '')).toEqual([
      'info',
      'modelfile',
      'parameters',
      'system',
      'template',
      'license',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { parseModelInfo, parseModelParameters } from '../../src/ollama/model-info.js';

const qwen3Show = {
  parameters: 'num_ctx                        8192\nstop                           "<|im_end|>"',
  details: { format: 'gguf', family: 'qwen3', parameter_size: '8.2B', quantization_level: 'Q4_K_M' },
  model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40960, 'llama.context_length': 1 },
  capabilities: ['completion', 'tools', 'thinking'],
};

describe('parseModelInfo', () => {
  it('reads num_ctx, the trained context of the architecture, capabilities and details', () => {
    expect(parseModelInfo('qwen3', qwen3Show)).toEqual({
      name: 'qwen3',
      numCtxParam: 8192,
      trainedContext: 40960,
      capabilities: ['completion', 'tools', 'thinking'],
      family: 'qwen3',
      parameterSize: '8.2B',
      quantization: 'Q4_K_M',
      architecture: 'qwen3',
      parameters: [
        { name: 'num_ctx', value: '8192' },
        { name: 'stop', value: '"<|im_end|>"' },
      ],
    });
  });

  it('keeps the Modelfile texts /show prints, and the embedding length', () => {
    const info = parseModelInfo('tutor', {
      modelfile: 'FROM x\nSYSTEM """Be kind."""',
      template: '{{ .Prompt }}',
      system: 'Be kind.',
      license: ['MIT', 'Apache'],
      model_info: { 'general.architecture': 'llama', 'llama.embedding_length': 3072 },
    });
    expect(info).toMatchObject({
      modelfile: 'FROM x\nSYSTEM """Be kind."""',
      template: '{{ .Prompt }}',
      system: 'Be kind.',
      license: 'MIT\nApache',
      embeddingLength: 3072,
    });
    expect(parseModelInfo('m', { system: '', license: '' })).not.toHaveProperty('system');
  });

  it('finds num_ctx among other parameters, not inside another name', () => {
    const info = parseModelInfo('m', {
      parameters: 'stop "x"\nnum_ctx_extra 5\nnum_ctx 32768\ntemperature 0.6',
    });
    expect(info.numCtxParam).toBe(32768);
  });

  it('leaves out what the answer does not say', () => {
    expect(parseModelInfo('bare', { capabilities: ['completion'] })).toEqual({
      name: 'bare',
      capabilities: ['completion'],
    });
    expect(parseModelInfo('nulls', { model_info: null, parameters: '' })).toEqual({
      name: 'nulls',
      capabilities: ['completion'],
    });
  });

  it('takes the only context_length key when the architecture is missing', () => {
    expect(parseModelInfo('m', { model_info: { 'gemma3.context_length': 131072 } }).trainedContext).toBe(
      131072,
    );
  });

  it('ignores a context length that is not a positive integer', () => {
    const info = parseModelInfo('m', {
      model_info: { 'general.architecture': 'x', 'x.context_length': '4096' },
    });
    expect(info.trainedContext).toBeUndefined();
  });

  it('infers tool support from the template on servers without capabilities', () => {
    expect(parseModelInfo('old', { template: '{{ if .Tools }}…{{ end }}' }).capabilities).toEqual([
      'completion',
      'tools',
    ]);
    expect(parseModelInfo('old', { template: '{{ .Prompt }}' }).capabilities).toEqual(['completion']);
  });
});

describe('parseModelParameters', () => {
  it('splits the server text into name and printed value, keeping repeated stops', () => {
    const text =
      'num_ctx                        8192\nstop                           "<|a|>"\nstop "<|b|>"\n';
    expect(parseModelParameters(text)).toEqual([
      { name: 'num_ctx', value: '8192' },
      { name: 'stop', value: '"<|a|>"' },
      { name: 'stop', value: '"<|b|>"' },
    ]);
    expect(parseModelParameters(undefined)).toEqual([]);
  });
});

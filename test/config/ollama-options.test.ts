import fc from 'fast-check';
import type { Options } from 'ollama';
import { describe, expect, it } from 'vitest';
import {
  OLLAMA_OPTION_NAMES,
  OLLAMA_OPTIONS,
  ollamaOptionsSchema,
  optionExpectation,
  parseOllamaOption,
} from '../../src/config/ollama-options.js';

describe('OLLAMA_OPTIONS', () => {
  it('lists the options of current Ollama servers, each with a description', () => {
    expect(OLLAMA_OPTION_NAMES).toEqual(
      expect.arrayContaining(['num_ctx', 'temperature', 'stop', 'use_mmap']),
    );
    expect(OLLAMA_OPTION_NAMES).not.toContain('mirostat');
    for (const name of OLLAMA_OPTION_NAMES)
      expect(OLLAMA_OPTIONS[name].description.length).toBeGreaterThan(10);
  });

  it('only names options the ollama client knows, so values can be sent as its Options', () => {
    // Compile-time: every table name is a key of the npm client's Options type.
    const names: (keyof Options)[] = OLLAMA_OPTION_NAMES;
    expect(names.length).toBe(19);
  });

  it('describes each expected type and range', () => {
    expect(optionExpectation(OLLAMA_OPTIONS.num_ctx)).toBe('an integer of at least 1');
    expect(optionExpectation(OLLAMA_OPTIONS.top_p)).toBe('a number between 0 and 1');
    expect(optionExpectation(OLLAMA_OPTIONS.seed)).toBe('an integer');
    expect(optionExpectation(OLLAMA_OPTIONS.use_mmap)).toBe('true or false');
    expect(optionExpectation(OLLAMA_OPTIONS.stop)).toBe('a list of strings');
  });
});

describe('parseOllamaOption', () => {
  it('parses integers', () => {
    expect(parseOllamaOption('num_ctx', '16384')).toEqual({ ok: true, name: 'num_ctx', value: 16384 });
    expect(parseOllamaOption('num_predict', ' -1 ')).toEqual({ ok: true, name: 'num_predict', value: -1 });
  });

  it('rejects non-integers and out-of-range integers, naming option, type and range', () => {
    expect(parseOllamaOption('num_ctx', '8k')).toEqual({
      ok: false,
      error: 'num_ctx: must be an integer of at least 1, got "8k"',
    });
    expect(parseOllamaOption('num_ctx', '1.5')).toMatchObject({ ok: false });
    expect(parseOllamaOption('num_ctx', '0')).toEqual({
      ok: false,
      error: 'num_ctx: must be an integer of at least 1, got 0',
    });
    expect(parseOllamaOption('seed', '99999999999999999999')).toMatchObject({ ok: false });
  });

  it('parses numbers, including decimals without a leading digit and exponents', () => {
    expect(parseOllamaOption('temperature', '0.7')).toEqual({ ok: true, name: 'temperature', value: 0.7 });
    expect(parseOllamaOption('top_p', '.9')).toEqual({ ok: true, name: 'top_p', value: 0.9 });
    expect(parseOllamaOption('presence_penalty', '-1.5e-1')).toMatchObject({ ok: true, value: -0.15 });
  });

  it('rejects numbers out of range and text that is not a number', () => {
    expect(parseOllamaOption('top_p', '1.5')).toEqual({
      ok: false,
      error: 'top_p: must be a number between 0 and 1, got 1.5',
    });
    expect(parseOllamaOption('temperature', '-0.1')).toMatchObject({ ok: false });
    for (const bad of ['hot', '', '0x10', 'Infinity', 'NaN', '1,5']) {
      expect(parseOllamaOption('temperature', bad)).toMatchObject({ ok: false });
    }
  });

  it('parses booleans in their common spellings', () => {
    for (const yes of ['true', 'TRUE', 'on', 'yes', '1']) {
      expect(parseOllamaOption('use_mmap', yes)).toEqual({ ok: true, name: 'use_mmap', value: true });
    }
    for (const no of ['false', 'off', 'no', '0']) {
      expect(parseOllamaOption('use_mmap', no)).toEqual({ ok: true, name: 'use_mmap', value: false });
    }
    expect(parseOllamaOption('use_mmap', 'maybe')).toEqual({
      ok: false,
      error: 'use_mmap: must be true or false, got "maybe"',
    });
  });

  it('parses stop as one sequence, or a JSON list of several', () => {
    expect(parseOllamaOption('stop', '<|im_end|>')).toEqual({
      ok: true,
      name: 'stop',
      value: ['<|im_end|>'],
    });
    expect(parseOllamaOption('stop', '["\\n\\n", "User:"]')).toEqual({
      ok: true,
      name: 'stop',
      value: ['\n\n', 'User:'],
    });
    expect(parseOllamaOption('stop', '[]')).toEqual({ ok: true, name: 'stop', value: [] });
    expect(parseOllamaOption('stop', '[1, 2]')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^stop: /),
    });
    expect(parseOllamaOption('stop', '["unclosed"')).toMatchObject({ ok: false });
  });

  it('rejects an unknown option with the nearest name', () => {
    expect(parseOllamaOption('temprature', '1')).toEqual({
      ok: false,
      error: 'unknown Ollama option "temprature" (did you mean "temperature"?)',
    });
    expect(parseOllamaOption('numctx', '1')).toMatchObject({ error: expect.stringContaining('"num_ctx"') });
    expect(parseOllamaOption('flux_capacitor', '1')).toEqual({
      ok: false,
      error: 'unknown Ollama option "flux_capacitor"',
    });
    // Names inherited from Object.prototype are not options.
    expect(parseOllamaOption('toString', '1')).toMatchObject({ ok: false });
  });

  it('round-trips every in-range integer and float through its text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 }), (n) => {
        expect(parseOllamaOption('num_ctx', String(n))).toEqual({ ok: true, name: 'num_ctx', value: n });
      }),
    );
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (x) => {
        expect(parseOllamaOption('min_p', String(x))).toEqual({ ok: true, name: 'min_p', value: x });
      }),
    );
  });
});

describe('ollamaOptionsSchema', () => {
  it('accepts typed options and a single stop string as a list', () => {
    expect(
      ollamaOptionsSchema.parse({ num_ctx: 4096, temperature: 0, stop: '###', use_mmap: false }),
    ).toEqual({
      num_ctx: 4096,
      temperature: 0,
      stop: ['###'],
      use_mmap: false,
    });
  });

  it('rejects unknown options and values of the wrong type', () => {
    expect(ollamaOptionsSchema.safeParse({ mirostat: 1 }).success).toBe(false);
    expect(ollamaOptionsSchema.safeParse({ num_ctx: '8192' }).success).toBe(false);
  });
});

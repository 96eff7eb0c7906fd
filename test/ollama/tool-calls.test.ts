import { describe, expect, it } from 'vitest';
import { readToolCalls } from '../../src/ollama/tool-calls.js';

describe('readToolCalls', () => {
  it('passes a well-formed Ollama call through, id and index included', () => {
    const call = { id: 'call_1', function: { index: 0, name: 'read_file', arguments: { path: 'a' } } };
    expect(readToolCalls([call])).toEqual([call]);
  });

  it('reads arguments sent as a JSON string, and null arguments as none', () => {
    expect(readToolCalls([{ function: { name: 'f', arguments: '{"a":1}' } }])).toEqual([
      { function: { name: 'f', arguments: { a: 1 } } },
    ]);
    expect(readToolCalls([{ function: { name: 'f', arguments: null } }])).toEqual([
      { function: { name: 'f', arguments: {} } },
    ]);
  });

  it.each([
    [{ function: {} }, '', 'the tool name is missing'],
    [{ function: { name: 42 } }, '42', 'the tool name is a number (42)'],
    [{ function: { name: null } }, '', 'the tool name is null'],
    [null, '', 'the call is null, not an object'],
    ['read_file', '', 'the call is a string, not an object'],
    [{ name: 'read_file' }, '', 'the call has no "function" object'],
    [{ function: { name: 'f', arguments: 7 } }, 'f', 'the arguments are a number (7), not a JSON object'],
    [{ function: { name: 'f', arguments: [1] } }, 'f', 'the arguments are a list, not a JSON object'],
    [
      { function: { name: 'f', arguments: 'not json' } },
      'f',
      'the arguments are a string, not a JSON object',
    ],
  ])('turns %j into a storable call marked malformed', (raw, name, problem) => {
    const [call] = readToolCalls([raw]);
    expect(call).toEqual({ function: { name, arguments: {} }, malformed: problem });
  });

  it('reads a lone call that is not in a list, and no calls from null', () => {
    expect(readToolCalls({ function: { name: 'f', arguments: {} } })).toHaveLength(1);
    expect(readToolCalls(null)).toEqual([]);
    expect(readToolCalls(undefined)).toEqual([]);
  });
});

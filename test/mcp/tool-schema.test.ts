import { describe, expect, it } from 'vitest';
import { shortDescription, toToolParameters } from '../../src/mcp/tool-schema.js';

describe('toToolParameters', () => {
  it('passes nested objects, arrays, enums and unions through, leaving out what templates do not use', () => {
    expect(
      toToolParameters({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        additionalProperties: false,
        properties: {
          path: { type: 'string', description: 'Where', format: 'uri' },
          edits: {
            type: 'array',
            items: { type: 'object', properties: { oldText: { type: 'string' } }, required: ['oldText'] },
          },
          mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
          depth: { type: ['integer', 'null'] },
          target: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        },
        required: ['path'],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Where' },
        edits: {
          type: 'array',
          items: { type: 'object', properties: { oldText: { type: 'string' } }, required: ['oldText'] },
        },
        mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
        depth: { type: ['integer', 'null'] },
        target: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      },
      required: ['path'],
    });
  });

  it('gives an empty object schema for a malformed one', () => {
    expect(toToolParameters(undefined)).toEqual({ type: 'object', properties: {} });
    expect(toToolParameters({ type: 'object', properties: 'x', required: 'y' })).toEqual({
      type: 'object',
      properties: {},
    });
  });
});

describe('shortDescription', () => {
  it('flattens control characters and whitespace and cuts to the limit', () => {
    expect(shortDescription('a\u001b[31m\n\tb', 100)).toBe('a [31m b');
    expect(shortDescription('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(shortDescription(3, 10)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import type { JSONSchemaObject } from '../../src/backend/interfaces.js';
import { validateToolArguments } from '../../src/tools/validate-args.js';

const schema: JSONSchemaObject = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    limit: { type: 'integer' },
    ratio: { type: 'number' },
    force: { type: 'boolean' },
    mode: { type: 'string', enum: ['a', 'b'] },
  },
  required: ['path'],
};

describe('validateToolArguments', () => {
  it('accepts valid arguments and passes unknown ones through', () => {
    expect(validateToolArguments(schema, { path: 'x', limit: 3, extra: 1 })).toEqual({
      ok: true,
      args: { path: 'x', limit: 3, extra: 1 },
    });
  });

  it('reports missing required arguments', () => {
    const check = validateToolArguments(schema, { limit: 3 });
    expect(check).toEqual({ ok: false, problems: ['"path" is required (string)'] });
  });

  it('reports wrong types and enum values', () => {
    const check = validateToolArguments(schema, { path: 7, limit: 1.5, mode: 'c' });
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.problems).toEqual([
        '"path" must be a string, got 7',
        '"limit" must be an integer, got 1.5',
        '"mode" must be one of "a", "b"',
      ]);
    }
  });

  it('converts quoted numbers and booleans, as small models send them', () => {
    expect(validateToolArguments(schema, { path: 'x', limit: '50', ratio: '0.5', force: 'true' })).toEqual({
      ok: true,
      args: { path: 'x', limit: 50, ratio: 0.5, force: true },
    });
    expect(validateToolArguments(schema, { path: 'x', limit: 'many' }).ok).toBe(false);
  });

  it('drops null optional arguments and refuses non-objects', () => {
    expect(validateToolArguments(schema, { path: 'x', limit: null })).toEqual({
      ok: true,
      args: { path: 'x' },
    });
    expect(validateToolArguments(schema, ['x']).ok).toBe(false);
  });

  it('checks nested objects, arrays of objects, unions of types and anyOf, as MCP servers send them', () => {
    const nested: JSONSchemaObject = {
      type: 'object',
      properties: {
        edits: {
          type: 'array',
          items: {
            type: 'object',
            properties: { oldText: { type: 'string' }, newText: { type: 'string' } },
            required: ['oldText', 'newText'],
          },
        },
        mode: { type: 'string', enum: ['fast', 'slow'] },
        depth: { type: ['integer', 'null'] },
        target: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
      },
      required: ['edits'],
    };
    expect(
      validateToolArguments(nested, { edits: [{ oldText: 'a', newText: 'b' }], depth: '3', target: ['x'] }),
    ).toEqual({ ok: true, args: { edits: [{ oldText: 'a', newText: 'b' }], depth: 3, target: ['x'] } });
    const bad = validateToolArguments(nested, { edits: [{ oldText: 'a' }], mode: 'medium', target: 5 });
    expect(bad).toEqual({
      ok: false,
      problems: [
        '"edits[0].newText" is required (string)',
        '"mode" must be one of "fast", "slow"',
        '"target" matches none of the types allowed (string | array)',
      ],
    });
    expect(validateToolArguments(nested, { edits: 'x' })).toEqual({
      ok: false,
      problems: ['"edits" must be an array, got "x"'],
    });
  });
});

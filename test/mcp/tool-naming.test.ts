import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignToolNames, MAX_TOOL_NAME_CHARS, modelToolName } from '../../src/mcp/tool-naming.js';

describe('modelToolName', () => {
  it('joins server and tool with __, keeping allowed characters', () => {
    expect(modelToolName('everything', 'get-sum')).toBe('everything__get-sum');
  });

  it('makes other characters _ and shortens long names deterministically', () => {
    expect(modelToolName('fs', 'read.file/v2 x')).toBe('fs__read_file_v2_x');
    const long = modelToolName('server', 'a'.repeat(100));
    expect(long).toHaveLength(MAX_TOOL_NAME_CHARS);
    expect(long).toBe(modelToolName('server', 'a'.repeat(100)));
    expect(long).not.toBe(modelToolName('server', `${'a'.repeat(99)}b`));
  });

  it('always gives a name of allowed characters within the limit', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (server, tool) => {
        expect(modelToolName(server, tool)).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      }),
    );
  });
});

describe('assignToolNames', () => {
  it('resolves collisions with the built-ins and between servers, first come first served', () => {
    expect(
      assignToolNames(
        [
          { server: 'a', tool: 'x.y' },
          { server: 'a', tool: 'x_y' },
          { server: 'a', tool: 'x y' },
          { server: 'read', tool: 'file' },
        ],
        ['read__file'],
      ),
    ).toEqual(['a__x_y', 'a__x_y_2', 'a__x_y_3', 'read__file_2']);
  });

  it('never gives two tools one name', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ server: fc.constantFrom('s', 't'), tool: fc.string({ maxLength: 80 }) })),
        (tools) => {
          const names = assignToolNames(tools, []);
          expect(new Set(names).size).toBe(names.length);
          for (const name of names) expect(name.length).toBeLessThanOrEqual(MAX_TOOL_NAME_CHARS);
        },
      ),
    );
  });
});

import { describe, expect, test } from 'vitest';
import { mcpErrorText } from '../../src/mcp/mcp-error-text.js';

describe('mcpErrorText', () => {
  test("the SDK's zod issue list for an answer that breaks the schema becomes one line of words", () => {
    const issues = [
      {
        expected: 'string',
        code: 'invalid_type',
        path: ['tools', 1, 'name'],
        message: 'Invalid input: expected string, received number',
      },
      {
        expected: 'object',
        code: 'invalid_type',
        path: ['tools', 1, 'inputSchema'],
        message: 'Invalid input: expected object, received undefined',
      },
      {
        expected: 'string',
        code: 'invalid_type',
        path: ['tools', 2, 'name'],
        message: 'Invalid input: expected string, received undefined',
      },
      {
        expected: 'object',
        code: 'invalid_type',
        path: ['tools', 2, 'inputSchema'],
        message: 'Invalid input: expected object, received undefined',
      },
    ];
    const error = new Error(`Invalid result for tools/list: ${JSON.stringify(issues, null, 2)}`);
    expect(mcpErrorText(error)).toBe(
      "the server's answer to tools/list does not follow MCP: tools[1].name: expected string, received number; tools[1].inputSchema: expected object, received undefined; tools[2].name: expected string, received undefined (and 1 more problem)",
    );
  });

  test('other errors are described as any error is', () => {
    expect(mcpErrorText(new Error('Connection closed'))).toBe('Connection closed');
    expect(mcpErrorText(Object.assign(new Error('ENOENT: raw'), { code: 'ENOENT', path: '/x' }))).toBe(
      'no such file or folder (/x)',
    );
  });
});

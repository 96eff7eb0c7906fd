import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../../src/backend/interfaces.js';
import { matchTools, planToolDefinitions } from '../../src/tools/definition-budget.js';

const schema = (name: string, description = `${name} does things`): ToolSchema => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties: {} } },
});
const finder = schema('find_tools');
const tools = ['a', 'b', 'c', 'd', 'e'].map((name) => schema(name));
const names = (list: ToolSchema[]) => list.map((s) => s.function.name);

describe('planToolDefinitions', () => {
  it('sends every definition, and no find_tools, when all fit', () => {
    const plan = planToolDefinitions({ schemas: tools, recent: [], maxTokens: 50, cost: () => 10, finder });
    expect(names(plan.resident)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(plan).toMatchObject({ deferred: [], totalTokens: 50 });
  });

  it('over the budget keeps the most recently used beside find_tools, in registration order, and defers the rest', () => {
    const plan = planToolDefinitions({
      schemas: tools,
      recent: ['e', 'c'],
      maxTokens: 49,
      cost: () => 10,
      finder,
    });
    // 49 − 10 for find_tools leaves room for three: e and c (recent), then a.
    expect(names(plan.resident)).toEqual(['a', 'c', 'e', 'find_tools']);
    expect(names(plan.deferred)).toEqual(['b', 'd']);
    expect(plan.totalTokens).toBe(50);
  });

  it('skips one too large for what is left, and still takes smaller ones', () => {
    const cost = (s: ToolSchema) => (s.function.name === 'a' ? 100 : 10);
    const plan = planToolDefinitions({ schemas: tools, recent: [], maxTokens: 40, cost, finder });
    expect(names(plan.resident)).toEqual(['b', 'c', 'd', 'find_tools']);
  });
});

describe('matchTools', () => {
  const list = [
    schema('fs__read_file', 'Read a file'),
    schema('gh__create_issue', 'Open a GitHub issue'),
    schema('x__issue_list', 'List issues'),
  ];
  it('ranks name matches above description matches', () => {
    expect(names(matchTools('issue', list, 5))).toEqual(['gh__create_issue', 'x__issue_list']);
    expect(names(matchTools('read file', list, 1))).toEqual(['fs__read_file']);
    expect(matchTools('zzz qqq', list, 5)).toEqual([]);
  });
});

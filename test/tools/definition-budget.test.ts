import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../../src/backend/interfaces.js';
import {
  deferralNotice,
  droppedNotice,
  matchTools,
  planToolDefinitions,
} from '../../src/tools/definition-budget.js';

const schema = (name: string, description = `${name} does things`): ToolSchema => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties: {} } },
});
const finder = schema('find_tools');
const tools = ['a', 'b', 'c', 'd', 'e'].map((name) => schema(name));
const names = (list: ToolSchema[]) => list.map((s) => s.function.name);
/** No built-ins, nothing used or found. */
const none = { builtIn: () => false, used: [], found: [] };

describe('planToolDefinitions', () => {
  it('sends every definition, and no find_tools, when all fit', () => {
    const plan = planToolDefinitions({ ...none, schemas: tools, maxTokens: 50, cost: () => 10, finder });
    expect(names(plan.resident)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(plan).toMatchObject({ deferred: [], totalTokens: 50 });
  });

  it('over the budget keeps the most recently used beside find_tools, in registration order, and defers the rest', () => {
    const plan = planToolDefinitions({
      ...none,
      schemas: tools,
      used: ['e', 'c'],
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
    const plan = planToolDefinitions({ ...none, schemas: tools, maxTokens: 40, cost, finder });
    expect(names(plan.resident)).toEqual(['b', 'c', 'd', 'find_tools']);
  });

  it('keeps the built-ins that fit on their own before any MCP tool, then used before found', () => {
    const mixed = [
      ...['r', 's'].map((n) => schema(n)),
      ...['m__a', 'm__b', 'm__c', 'm__d'].map((n) => schema(n)),
    ];
    const plan = planToolDefinitions({
      schemas: mixed,
      builtIn: (name) => !name.startsWith('m__'),
      used: ['m__d'],
      found: ['m__b', 'm__c', 'm__a'],
      maxTokens: 50,
      cost: () => 10,
      finder,
    });
    // 50 − 10 for find_tools: both built-ins, the used m__d, then the newest find m__b.
    expect(names(plan.resident)).toEqual(['r', 's', 'm__b', 'm__d', 'find_tools']);
    expect(names(plan.deferred)).toEqual(['m__a', 'm__c']);
  });

  it('with built-ins that do not fit on their own, the used ones first, still before MCP tools', () => {
    const mixed = [...['r', 's', 't'].map((n) => schema(n)), schema('m__a')];
    const plan = planToolDefinitions({
      schemas: mixed,
      builtIn: (name) => !name.startsWith('m__'),
      used: ['m__a', 't'],
      found: [],
      maxTokens: 30,
      cost: () => 10,
      finder,
    });
    expect(names(plan.resident)).toEqual(['r', 't', 'find_tools']);
  });
});

describe('deferral notices', () => {
  it('name the built-ins that had to be deferred, and what a later plan stops sending', () => {
    const plan = {
      resident: [schema('r'), finder],
      deferred: [schema('s'), schema('m__a')],
      totalTokens: 3000,
    };
    expect(
      deferralNotice({
        plan,
        mcpCount: 1,
        builtIns: 2,
        numCtx: 2048,
        share: 0.25,
        isBuiltIn: (n) => n.length === 1,
      }),
    ).toBe(
      'MCP: 1 tool, ~3k tokens with the 2 built-ins = 146% of the 2k window (over tools.max_definitions_share, 25%); 2 deferred, found by the model with find_tools. The built-ins alone do not fit the share: s deferred too.',
    );
    expect(droppedNotice(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'], 0.25)).toBe(
      'Tool definitions no longer sent (tools.max_definitions_share, 25%, makes room for the tools the model used or found): a, b, c, d, e, f, g, h and 2 more; find_tools finds them again.',
    );
  });
});

describe('matchTools', () => {
  it("brings the one tool a query names exactly, by its full name or its server's name for it", () => {
    const list = [
      schema('ev__get-sum', 'Returns the sum'),
      schema('ev__get-env', 'Gets env'),
      schema('fs__read_text_file'),
    ];
    expect(names(matchTools('get-sum', list, 8))).toEqual(['ev__get-sum']);
    expect(names(matchTools(' fs__read_text_file ', list, 8))).toEqual(['fs__read_text_file']);
    // Not a name: every tool with the word.
    expect(names(matchTools('get', list, 8)).sort()).toEqual(['ev__get-env', 'ev__get-sum']);
  });

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

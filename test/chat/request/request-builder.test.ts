/** The next request as the request builder makes it from the model settings and the conversation. */
import { afterEach, describe, expect, it } from 'vitest';
import { formatTokens } from '../../../src/conversation/format-tokens.js';
import type { DefinitionPlan } from '../../../src/tools/definition-budget.js';
import { BUILTIN_TOOLS } from '../../../src/tools/registry.js';
import { type FakeChat, fakeChat } from '../../support/fake-chat.js';

const chats: FakeChat[] = [];
afterEach(() => {
  for (const chat of chats.splice(0)) chat.dispose();
});

async function open(options: Parameters<typeof fakeChat>[0] = {}): Promise<FakeChat> {
  const chat = await fakeChat(options);
  chats.push(chat);
  return chat;
}

/** Forty MCP tools of a `docs` server, more than tools.max_definitions_share of a 4k window. */
function addDocsServerTools(chat: FakeChat): void {
  chat.tools.setMcpTools(
    Array.from({ length: 40 }, (_, i) => ({
      ...BUILTIN_TOOLS[0],
      name: `docs__tool_${i}`,
      description: `Tool ${i}: ${'does a thing to a document. '.repeat(8)}`,
      mcp: { server: 'docs', tool: `tool_${i}`, confirm: true },
    })),
  );
}

/** The tool definition plan of the chat's next request. */
function definitionsOf(chat: FakeChat): DefinitionPlan {
  const frame = chat.parts.requests.frame();
  if (!frame) throw new Error('not connected');
  return frame.definitions;
}

describe('RequestBuilder', () => {
  it('offers recall once part of the conversation is compacted, counted in the definitions; the budgets stay as they were', async () => {
    const chat = await open({
      model: { capabilities: ['completion', 'tools'] },
      configure: (config) => {
        config.options.num_ctx = 2048;
      },
    });
    const { requests, conversation } = chat.parts;
    chat.userSays('hello');
    const before = requests.frame()!;
    expect(before.budgets.scaled).toBe(true);
    expect(before.definitions.resident.map((d) => d.function.name)).not.toContain('recall');
    expect(before.recallTokens).toBeGreaterThan(0);
    expect(requests.recallTokensToCome(before)).toBe(before.recallTokens);
    conversation.addRecord({
      upto: 1,
      narrative: 'They said hello.',
      toolEntries: [],
      model: 'fake:latest',
      at: '2026-08-21T10:00:00Z',
      tokensBefore: 100,
      tokensAfter: 20,
    });
    const after = requests.frame()!;
    expect(after.definitions.resident.at(-1)?.function.name).toBe('recall');
    expect(after.toolTokens - before.toolTokens).toBe(before.recallTokens);
    expect(requests.recallTokensToCome(after)).toBe(0);
    // Left to the room kept for the system message: at 2k the summary would lose a share otherwise.
    expect(after.budgets).toEqual(before.budgets);
  });

  it('sends the connected window, the options, and thinking and tools only where the model has them', async () => {
    const plain = await open({ model: { capabilities: ['completion'] } });
    plain.parts.settings.setOption('temperature', 0.1);
    plain.parts.settings.setThink('high');
    const request = plain.parts.requests.plan()?.request;
    expect(request).toEqual({
      model: 'fake:latest',
      messages: [],
      options: { temperature: 0.1, num_ctx: plain.connected.numCtx },
      // Refused over num_ctx rather than cut silently; keep_alive only when set.
      truncate: false,
    });
    plain.parts.settings.setKeepAlive('30m');
    expect(plain.parts.requests.plan()?.request.keep_alive).toBe('30m');
    expect(plain.parts.requests.loadRequest(plain.connected)).toEqual({
      model: 'fake:latest',
      options: { temperature: 0.1, num_ctx: plain.connected.numCtx },
      keep_alive: '30m',
    });

    const able = await open({ model: { capabilities: ['completion', 'tools', 'thinking'] } });
    able.parts.settings.setThink('high');
    const full = able.parts.requests.plan()?.request;
    expect(full?.think).toBe('high');
    expect(full?.tools?.map((t) => t.function.name)).toEqual(
      able.parts.host.tools
        .list()
        .filter((t) => t.enabled)
        .map((t) => t.name),
    );
    expect(able.parts.requests.plan()?.toolTokens).toBeGreaterThan(0);
    expect(plain.parts.requests.plan()?.toolTokens).toBe(0);
  });

  it('forgets the server count when the system prompt or the tool list changes, not for other options', async () => {
    const chat = await open({ model: { capabilities: ['completion', 'tools'] } });
    const { settings, requests } = chat.parts;
    const anchored = () => requests.meter.state.anchor !== undefined;
    chat.backend.enqueue({ content: 'Hi.', promptEvalCount: 30, evalCount: 3 });
    chat.userSays('hello');
    await chat.parts.turns.run(chat.connected);
    expect(anchored()).toBe(true);
    settings.setOption('temperature', 0.3);
    expect(anchored()).toBe(true);
    settings.setSystem('Be brief.');
    expect(anchored()).toBe(false);
    expect(requests.plan()?.view[0]).toEqual({ role: 'system', content: 'Be brief.' });

    chat.backend.enqueue({ content: 'Ok.', promptEvalCount: 40, evalCount: 2 });
    chat.userSays('again');
    await chat.parts.turns.run(chat.connected);
    expect(anchored()).toBe(true);
    expect(settings.setToolEnabled('run_command', false)).toBe(true);
    expect(anchored()).toBe(false);
  });

  it('defers tool definitions over tools.max_definitions_share and says so once: the MCP tools counted, the built-ins named in the share', async () => {
    const chat = await open({ model: { capabilities: ['completion', 'tools'], numCtxParam: 4096 } });
    const { requests } = chat.parts;
    const told: string[] = [];
    requests.onToolsDeferred = (text) => told.push(text);
    const builtIns = chat.tools.schemas().length;
    addDocsServerTools(chat);
    requests.toolsChanged();
    const plan = requests.frame()?.definitions;
    // Planned again (a tool used): deferred still, and not said again.
    requests.touchTools(['read_file']);
    expect(requests.frame()?.definitions).not.toBe(plan);
    await Promise.resolve();
    if (!plan) throw new Error('not connected');
    expect(plan.deferred.length).toBeGreaterThan(0);
    const percent = Math.round((plan.totalTokens / chat.connected.numCtx) * 100);
    expect(percent).toBeGreaterThan(25);
    expect(told).toEqual([
      `MCP: 40 tools, ~${formatTokens(plan.totalTokens)} tokens with the ${builtIns} built-ins = ${percent}% of the 4k window (over tools.max_definitions_share, 25%); ${plan.deferred.length} deferred, found by the model with find_tools.`,
    ]);
  });

  it('tells nothing while an MCP server is still starting; later, names each definition a find pushes out', async () => {
    const chat = await open({ model: { capabilities: ['completion', 'tools'], numCtxParam: 4096 } });
    const { requests } = chat.parts;
    const told: string[] = [];
    requests.onToolsDeferred = (text) => told.push(text);
    let settled = false;
    requests.mcpSettled = () => settled;
    addDocsServerTools(chat);
    requests.toolsChanged();
    requests.frame();
    await Promise.resolve();
    expect(told).toEqual([]);
    settled = true;
    const before = definitionsOf(chat);
    await Promise.resolve();
    expect(told).toHaveLength(1);
    const sentBefore = before.resident.map((schema) => schema.function.name);
    // Found: the last two deferred ones, which push out the two MCP tools that were sent.
    const found = before.deferred.slice(-2).map((schema) => schema.function.name);
    requests.toolRecency.find(found);
    const after = definitionsOf(chat);
    await Promise.resolve();
    const sentAfter = after.resident.map((schema) => schema.function.name);
    expect(sentAfter).toEqual(expect.arrayContaining(found));
    const dropped = sentBefore.filter((name) => !sentAfter.includes(name));
    expect(dropped.length).toBeGreaterThan(0);
    expect(told[1]).toContain(`makes room for the tools the model used or found): ${dropped.join(', ')}`);
    // Every built-in still sent: they fit the share on their own.
    for (const tool of BUILTIN_TOOLS) expect(sentAfter).toContain(tool.name);
  });

  it('has /tools mark the tools whose definitions are deferred, and only those', async () => {
    const chat = await open({ model: { capabilities: ['completion', 'tools'], numCtxParam: 4096 } });
    addDocsServerTools(chat);
    chat.parts.requests.toolsChanged();
    const deferred =
      chat.parts.requests.frame()?.definitions.deferred.map((schema) => schema.function.name) ?? [];
    expect(deferred.length).toBeGreaterThan(0);
    const marked = chat.parts.toolRunner.list().filter((tool) => tool.deferred);
    expect(marked.map((tool) => tool.name).sort()).toEqual([...deferred].sort());
    expect(marked.length).toBeLessThan(chat.parts.toolRunner.list().length);
  });
});

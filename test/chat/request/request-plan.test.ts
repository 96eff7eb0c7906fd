/**
 * The request plan is kept between reads: after every kind of change to what it is made of (the
 * conversation, the settings, the tools, the calibration, the window) the plan read next is the
 * chat as it now stands, never the one before.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildModelView, systemHead } from '../../../src/compaction/model-view.js';
import { BUILTIN_TOOLS } from '../../../src/tools/registry.js';
import { type FakeChat, fakeChat } from '../../support/fake-chat.js';

const chats: FakeChat[] = [];
afterEach(() => {
  for (const chat of chats.splice(0)) chat.dispose();
});

/** The plan read now against what it must be, each part rebuilt from the chat's state. */
function expectCurrent(chat: FakeChat): void {
  const { requests, settings, conversation } = chat.parts;
  const plan = requests.plan();
  if (!plan) throw new Error('not connected');
  const connected = settings.connected;
  expect(plan.model).toBe(connected);
  expect(plan.charsPerToken).toBe(requests.meter.charsPerToken);
  expect(plan.head).toEqual(systemHead({ ...settings.systemSections(), record: conversation.latestRecord }));
  expect(plan.view).toEqual(
    buildModelView({
      ...settings.systemSections(),
      record: conversation.latestRecord,
      transcript: conversation.transcript,
      toolContent: requests.toolContent,
      fit: plan.fit,
    }),
  );
  expect(plan.budgets.numCtx).toBe(connected?.numCtx);
  const { request } = plan;
  expect(request.messages).toBe(plan.view);
  expect(request.options).toEqual({ ...settings.options, num_ctx: connected?.numCtx });
  expect(request.keep_alive).toBe(settings.keepAlive);
  expect(request.think).toBe(settings.supportsThinking ? settings.think : undefined);
  const enabled = chat.tools
    .list()
    .filter((tool) => tool.enabled)
    .map((tool) => tool.name);
  // recall joins the tools once part of the conversation is compacted.
  const offered = conversation.latestRecord ? [...enabled, 'recall'] : enabled;
  expect(request.tools?.map((tool) => tool.function.name) ?? []).toEqual(
    connected?.info.capabilities.includes('tools') ? offered : [],
  );
  expect(request.truncate).toBe(conversation.lastUserMessage()?.oversized === true);
}

describe('RequestBuilder.plan', () => {
  it('is the chat as it stands after each change, and the same value while nothing changed', async () => {
    const chat = await fakeChat({ model: { capabilities: ['completion', 'tools', 'thinking'] } });
    chats.push(chat);
    const { requests, settings, conversation, connector } = chat.parts;
    expectCurrent(chat);
    expect(requests.plan()).toBe(requests.plan());

    const steps: [string, () => unknown][] = [
      ['a user message', () => chat.userSays('hello')],
      ['a reply', () => conversation.append({ role: 'assistant', content: 'Hi there.' })],
      ['/retry', () => conversation.replaceLastReplies()],
      [
        'a message sent anyway',
        () => conversation.append({ role: 'user', content: 'long', oversized: true }),
      ],
      ['/system', () => settings.setSystem('Be brief.')],
      ['/pin', () => settings.setPins(['The answer is 42.'])],
      ['/set think', () => settings.setThink('high')],
      ['/set an option', () => settings.setOption('temperature', 0.2)],
      ['/set keep_alive', () => settings.setKeepAlive('5m')],
      ['/tools off', () => settings.setToolEnabled('run_command', false)],
      [
        'an MCP server ready',
        () =>
          chat.tools.setMcpTools([
            { ...BUILTIN_TOOLS[0], name: 'docs__find', mcp: { server: 'docs', tool: 'find', confirm: true } },
          ]),
      ],
      [
        'a compaction',
        () =>
          conversation.addRecord({
            upto: 0,
            narrative: 'They said hello.',
            toolEntries: [],
            model: 'fake:latest',
            at: '2026-08-21T10:00:00Z',
            tokensBefore: 100,
            tokensAfter: 20,
          }),
      ],
      ['/uncompact', () => conversation.dropLatestRecord()],
      ['a calibration', () => requests.resetMeter(2.5)],
      ['/set num_ctx', () => connector.resize(4096)],
      ['the model refusing tools', () => settings.dropCapability('tools')],
      ['/clear', () => conversation.clear()],
    ];
    for (const [change, step] of steps) {
      const before = requests.plan();
      step();
      expect(requests.plan(), change).not.toBe(before);
      expectCurrent(chat);
    }
  });

  it('keeps the frame (definitions, budgets, system message) across a new message, and plans it anew when the system prompt changes', async () => {
    const chat = await fakeChat({ model: { capabilities: ['completion', 'tools'] } });
    chats.push(chat);
    const { requests, settings } = chat.parts;
    const frame = requests.frame();
    chat.userSays('hello');
    expect(requests.frame()).toBe(frame);
    expect(requests.plan()?.definitions).toBe(frame?.definitions);
    settings.setSystem('Be brief.');
    expect(requests.frame()).not.toBe(frame);
  });
});

/**
 * One plan per request: for one plain message, the model view, the tool definition plan, the
 * definitions' estimate and the budgets are each made once before the request leaves, and every
 * reader (fit check, budget gate, request, meter) reads that plan. Counted with the real modules
 * wrapped, over the whole path from Enter (ChatController.submit) to the backend's `chat`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { ChatController } from '../../../src/chat/chat-controller.js';
import * as budgets from '../../../src/compaction/budgets.js';
import * as modelView from '../../../src/compaction/model-view.js';
import * as trigger from '../../../src/compaction/trigger.js';
import * as tokenEstimate from '../../../src/conversation/token-estimate.js';
import { testControllerDeps } from '../../support/controller-deps.js';
import { FakeBackend } from '../../support/fake-backend.js';

vi.mock('../../../src/compaction/model-view.js', async (original) => {
  const actual = await original<typeof import('../../../src/compaction/model-view.js')>();
  return { ...actual, buildModelView: vi.fn(actual.buildModelView) };
});
vi.mock('../../../src/compaction/budgets.js', async (original) => {
  const actual = await original<typeof import('../../../src/compaction/budgets.js')>();
  return { ...actual, resolveBudgets: vi.fn(actual.resolveBudgets) };
});
vi.mock('../../../src/compaction/trigger.js', async (original) => {
  const actual = await original<typeof import('../../../src/compaction/trigger.js')>();
  return { ...actual, isCompactionDue: vi.fn(actual.isCompactionDue) };
});
vi.mock('../../../src/conversation/token-estimate.js', async (original) => {
  const actual = await original<typeof import('../../../src/conversation/token-estimate.js')>();
  return { ...actual, estimateToolDefinitionsTokens: vi.fn(actual.estimateToolDefinitionsTokens) };
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('builds the view and the tool definition plan once for one plain message', async () => {
  const backend = new FakeBackend({ 'fake:latest': { capabilities: ['completion', 'tools'] } });
  const dir = mkdtempSync(join(tmpdir(), 'ochat-plan-count-'));
  dirs.push(dir);
  const deps = testControllerDeps(backend, dir, { flags: { model: 'fake:latest' } });
  // The definition plan starts from the registry's enabled schemas: one read per plan.
  const counted = {
    buildModelView: vi.mocked(modelView.buildModelView),
    definitionPlan: vi.spyOn(deps.tools, 'schemas'),
    toolDefinitionTokens: vi.mocked(tokenEstimate.estimateToolDefinitionsTokens),
    resolveBudgets: vi.mocked(budgets.resolveBudgets),
    budgetGateWeighed: vi.mocked(trigger.isCompactionDue),
  };
  for (const spy of Object.values(counted)) spy.mockClear();
  const count = () =>
    Object.fromEntries(Object.entries(counted).map(([name, spy]) => [name, spy.mock.calls.length]));
  let atSend: Record<string, number> | undefined;
  const chat = backend.chat.bind(backend);
  backend.chat = (request, handlers) => {
    atSend = count();
    return chat(request, handlers);
  };
  const controller = new ChatController(deps);
  await controller.start();
  // Connecting plans the empty chat's request once, for the meter.
  const connected = count();
  expect(connected).toEqual({
    buildModelView: 1,
    definitionPlan: 1,
    toolDefinitionTokens: 1,
    resolveBudgets: 1,
    budgetGateWeighed: 0,
  });

  backend.enqueue({ content: 'Hi!', promptEvalCount: 30, evalCount: 3 });
  await controller.submit('hello');
  await controller.idle();

  expect(backend.requests).toHaveLength(1);
  expect(backend.requests[0].tools?.length).toBeGreaterThan(0);
  // The message's plan: its view built once; the definitions, their estimate and the budgets
  // (the frame) are those planned at connecting, which the message leaves as they are.
  // Before the one plan, between Enter and the request: 4, 12, 11 and 5. The gate weighs that
  // plan once: the turn's first request passes with the plan the sender's gate let through
  // (it was weighed twice before).
  expect(atSend).toEqual({
    buildModelView: 2,
    definitionPlan: 1,
    toolDefinitionTokens: 1,
    resolveBudgets: 1,
    budgetGateWeighed: 1,
  });
});

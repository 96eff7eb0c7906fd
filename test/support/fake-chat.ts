/**
 * The parts of one chat (as the controller wires them) over a FakeBackend: unit tests of the
 * turn and compaction runners without a server. Connected to `model` before it is returned.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelInfo } from '../../src/backend/interfaces.js';
import { assembleChat, type ChatParts } from '../../src/chat/chat-parts.js';
import type { ConnectedModel } from '../../src/chat/request/model-selection.js';
import type { NoticeItem } from '../../src/chat/state/display-items.js';
import { createStore, type Store } from '../../src/chat/state/store.js';
import { type ChatViewState, initialViewState } from '../../src/chat/state/view-state.js';
import type { Config } from '../../src/config/schema.js';
import type { ToolRegistry } from '../../src/tools/registry.js';
import { testControllerDeps } from './controller-deps.js';
import { FakeBackend } from './fake-backend.js';
import { waitUntil } from './wait-until.js';

export interface FakeChat {
  backend: FakeBackend;
  parts: ChatParts;
  /** The chat's tool registry (built-ins; MCP tools as a test sets them). */
  tools: ToolRegistry;
  /** The model the chat is connected to. */
  connected: ConnectedModel;
  store: Store<ChatViewState>;
  notices(): NoticeItem[];
  /** Appends a user message as a new turn (what the controller does before running it). */
  userSays(text: string): void;
  /** Resolves once the store matches `predicate` (checked on every store change); rejects after 10 s. */
  until(predicate: (state: ChatViewState) => boolean): Promise<void>;
  dispose(): void;
}

export async function fakeChat(
  options: { model?: Partial<ModelInfo>; configure?: (config: Config) => void; interactive?: boolean } = {},
): Promise<FakeChat> {
  const dir = mkdtempSync(join(tmpdir(), 'ochat-fake-chat-'));
  const backend = new FakeBackend({ 'fake:latest': options.model ?? {} });
  const store = createStore(initialViewState(undefined));
  const deps = testControllerDeps(backend, dir, {
    configure: options.configure,
    interactive: options.interactive ?? true,
    now: () => new Date('2026-08-21T10:00:00Z'),
  });
  const parts = assembleChat(deps, store);
  const connected = await parts.connector.open('fake:latest');
  return {
    backend,
    parts,
    tools: deps.tools,
    connected,
    store,
    notices: () => store.get().items.filter((i): i is NoticeItem => i.kind === 'notice'),
    userSays(text) {
      parts.conversation.startTurn();
      parts.conversation.append({ role: 'user', content: text });
    },
    until: (predicate) =>
      waitUntil('the expected state of the chat', () => predicate(store.get()), {
        onChange: store.subscribe,
      }),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

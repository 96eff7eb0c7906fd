/**
 * What a ChatController (or the parts it assembles) is given in a test, over any backend: the
 * default config as `configure` changes it, the app state kept in `dir`, the built-in tools that
 * config enables, `dir` as the working directory (and its `config/` as ochat's config directory),
 * and no exit action. `overrides` replace any of it.
 */
import { join } from 'node:path';
import type { ChatBackend } from '../../src/backend/chat-backend.js';
import type { ChatControllerDeps } from '../../src/chat/chat-parts.js';
import { BUILTIN_COMMANDS } from '../../src/commands/builtin-commands.js';
import { AppState } from '../../src/config/app-state.js';
import { DEFAULT_CONFIG } from '../../src/config/defaults.js';
import type { Config } from '../../src/config/schema.js';
import { BUILTIN_TOOLS, createToolRegistry } from '../../src/tools/registry.js';

export function testControllerDeps(
  backend: ChatBackend,
  dir: string,
  { configure, ...overrides }: Partial<ChatControllerDeps> & { configure?: (config: Config) => void } = {},
): ChatControllerDeps {
  const config = structuredClone(DEFAULT_CONFIG) as Config;
  configure?.(config);
  return {
    backend,
    config,
    appState: new AppState({ cwd: dir }),
    tools: createToolRegistry(BUILTIN_TOOLS, { enabled: config.tools.enabled }),
    commands: BUILTIN_COMMANDS,
    cwd: dir,
    // The config directory in `dir`: the user's own AGENTS.md must not reach a test's requests.
    env: { ...process.env, XDG_CONFIG_HOME: join(dir, 'config') },
    flags: {},
    onExit: () => {},
    ...overrides,
  };
}

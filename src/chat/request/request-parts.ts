import type { Config } from '../../config/schema.js';
import type { Conversation } from '../../conversation/conversation.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ScreenLog } from '../state/screen-log.js';
import type { Store } from '../state/store.js';
import type { ChatViewState } from '../state/view-state.js';
import { ModelSettings } from './model-settings.js';
import { ProjectInstructions } from './project-instructions.js';
import { RequestBuilder } from './request-builder.js';

/** What every request is made of: the model's settings, the instruction files, and the request builder over them. */
export interface RequestParts {
  /** The model connected and what every request to it carries. */
  settings: ModelSettings;
  /** The instruction files (AGENTS.md) in the system message. */
  instructions: ProjectInstructions;
  /** The next request: its model view, its tool definitions, and the meter counting them. */
  requests: RequestBuilder;
}

/** The request room's parts. */
export function assembleRequestParts(input: {
  config: Config;
  tools: ToolRegistry;
  cwd: string;
  env: NodeJS.ProcessEnv;
  conversation: Conversation;
  store: Store<ChatViewState>;
  screen: ScreenLog;
}): RequestParts {
  const { config, tools, conversation, store, screen } = input;
  const settings = new ModelSettings(config, tools);
  const requests = new RequestBuilder(config, settings, conversation, tools, store);
  requests.onToolsDeferred = (text) => screen.notice('warning', text);
  const instructions = new ProjectInstructions({
    names: config.instructions_files,
    cwd: input.cwd,
    env: input.env,
    settings,
    requests,
    screen,
  });
  return { settings, instructions, requests };
}

import { clearCommand } from './builtin/clear.js';
import { compactCommand } from './builtin/compact.js';
import { contextCommand } from './builtin/context.js';
import { copyCommand } from './builtin/copy.js';
import { createHelpCommand } from './builtin/help.js';
import { instructionsCommand } from './builtin/instructions.js';
import { lastToolCommand } from './builtin/last-tool.js';
import { psCommand, pullCommand, unloadCommand } from './builtin/lifecycle.js';
import { loadCommand } from './builtin/load.js';
import { mcpCommand } from './builtin/mcp.js';
import { modelCommand } from './builtin/model.js';
import { pinCommand, pinsCommand, unpinCommand } from './builtin/pin.js';
import { quitCommand } from './builtin/quit.js';
import { recallCommand } from './builtin/recall.js';
import { retryCommand } from './builtin/retry.js';
import {
  deleteCommand,
  historyCommand,
  renameCommand,
  resumeCommand,
  saveCommand,
  sessionsCommand,
  uncompactCommand,
} from './builtin/sessions.js';
import { setCommand } from './builtin/set.js';
import { showCommand } from './builtin/show.js';
import { summaryCommand } from './builtin/summary.js';
import { systemCommand } from './builtin/system.js';
import { thinkCommand } from './builtin/think.js';
import { toolsCommand } from './builtin/tools.js';
import type { SlashCommand } from './command.js';

/** Every slash command, in the order `/help` lists them. */
export const BUILTIN_COMMANDS: readonly SlashCommand[] = [
  createHelpCommand(() => BUILTIN_COMMANDS),
  modelCommand,
  loadCommand,
  pullCommand,
  psCommand,
  unloadCommand,
  showCommand,
  systemCommand,
  pinCommand,
  pinsCommand,
  unpinCommand,
  recallCommand,
  instructionsCommand,
  setCommand,
  thinkCommand,
  retryCommand,
  compactCommand,
  summaryCommand,
  uncompactCommand,
  contextCommand,
  toolsCommand,
  mcpCommand,
  lastToolCommand,
  copyCommand,
  clearCommand,
  sessionsCommand,
  resumeCommand,
  renameCommand,
  historyCommand,
  saveCommand,
  deleteCommand,
  quitCommand,
];

import type { Tool } from '../tool.js';
import { getTimeTool } from './get-time.js';
import { listDirectoryTool } from './list-directory.js';
import { readFileTool } from './read-file.js';
import { runCommandTool } from './run-command.js';
import { searchFilesTool } from './search-files.js';
import { writeFileTool } from './write-file.js';

/** Every tool ochat ships with, in the order they are listed to the user and the model. */
export const BUILTIN_TOOLS: Tool[] = [
  readFileTool,
  listDirectoryTool,
  searchFilesTool,
  getTimeTool,
  writeFileTool,
  runCommandTool,
];

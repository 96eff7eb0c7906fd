import type { ToolSchema } from '../backend/interfaces.js';
import type { Tool } from './tool.js';

export { BUILTIN_TOOLS } from './builtin/index.js';

/** A tool as listed to the user, with whether the model may call it. */
export interface ToolListing {
  name: string;
  description: string;
  enabled: boolean;
  tool: Tool;
}

/** The known tools and which of them are enabled for this session. */
export interface ToolRegistry {
  /** A known tool, enabled or not. */
  get(name: string): Tool | undefined;
  isEnabled(name: string): boolean;
  /** Every known tool in registration order: the built-ins, then the MCP servers' tools. */
  list(): ToolListing[];
  /** Enables or disables a tool; false when no tool has that name. */
  setEnabled(name: string, on: boolean): boolean;
  /**
   * Replaces the MCP servers' tools (they come and go as servers start, fail and change their
   * lists). They are enabled unless the user turned that name off in this session.
   */
  setMcpTools(tools: readonly Tool[]): void;
  /**
   * The tool that finds deferred tools (`find_tools`): callable, never listed, its schema sent
   * only when definitions are deferred (see definition-budget.ts).
   */
  setFinder(tool: Tool): void;
  readonly finder: Tool | undefined;
  /**
   * The tool that searches the conversation (`recall`): callable, never listed, its schema sent
   * only once part of the conversation is compacted.
   */
  setRecall(tool: Tool): void;
  readonly recall: Tool | undefined;
  /** The enabled tools as Ollama's `tools` field wants them. */
  schemas(): ToolSchema[];
  /** Names in the `enabled` option that match no tool (for a config warning). */
  unknownEnabled: string[];
  /** Counts the changes to what `schemas()` returns: a request plan built from it is still good while this has not moved. */
  readonly version: number;
}

/** Ollama's `tools[]` entry for one tool. */
export function toolSchema(tool: Tool): ToolSchema {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

/** Creates a registry over `tools`; only those named in `enabled` start enabled. */
export function createToolRegistry(tools: Tool[], options: { enabled: string[] }): ToolRegistry {
  const builtin = new Map<string, Tool>();
  for (const tool of tools) {
    if (builtin.has(tool.name)) throw new Error(`two tools are named ${tool.name}`);
    builtin.set(tool.name, tool);
  }
  let mcp = new Map<string, Tool>();
  let finder: Tool | undefined;
  let recall: Tool | undefined;
  const enabled = new Set(options.enabled.filter((name) => builtin.has(name)));
  /** MCP tool names the user turned off: they stay off when their server lists them again. */
  const mcpOff = new Set<string>();
  const get = (name: string) =>
    builtin.get(name) ??
    mcp.get(name) ??
    (finder?.name === name ? finder : recall?.name === name ? recall : undefined);
  const isEnabled = (name: string) =>
    enabled.has(name) ||
    (mcp.has(name) && !mcpOff.has(name)) ||
    finder?.name === name ||
    recall?.name === name;
  const all = () => [...builtin.values(), ...mcp.values()];
  let version = 0;
  return {
    get,
    isEnabled,
    list: () =>
      all().map((tool) => ({
        name: tool.name,
        description: tool.description,
        enabled: isEnabled(tool.name),
        tool,
      })),
    setEnabled(name, on) {
      version++;
      if (builtin.has(name)) {
        if (on) enabled.add(name);
        else enabled.delete(name);
        return true;
      }
      if (!mcp.has(name)) return false;
      if (on) mcpOff.delete(name);
      else mcpOff.add(name);
      return true;
    },
    setMcpTools(list) {
      version++;
      mcp = new Map(list.filter((tool) => !builtin.has(tool.name)).map((tool) => [tool.name, tool]));
    },
    setFinder(tool) {
      version++;
      finder = tool;
    },
    get finder() {
      return finder;
    },
    setRecall(tool) {
      recall = tool;
    },
    get recall() {
      return recall;
    },
    schemas: () =>
      all()
        .filter((tool) => isEnabled(tool.name))
        .map(toolSchema),
    unknownEnabled: options.enabled.filter((name) => !builtin.has(name)),
    get version() {
      return version;
    },
  };
}

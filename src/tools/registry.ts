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
  /** Every known tool in registration order. */
  list(): ToolListing[];
  /** Enables or disables a tool; false when no tool has that name. */
  setEnabled(name: string, on: boolean): boolean;
  /** The enabled tools as Ollama's `tools` field wants them. */
  schemas(): ToolSchema[];
  /** Names in the `enabled` option that match no tool (for a config warning). */
  unknownEnabled: string[];
}

/** Creates a registry over `tools`; only those named in `enabled` start enabled. */
export function createToolRegistry(tools: Tool[], options: { enabled: string[] }): ToolRegistry {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`two tools are named ${tool.name}`);
    byName.set(tool.name, tool);
  }
  const enabled = new Set(options.enabled.filter((name) => byName.has(name)));
  return {
    get: (name) => byName.get(name),
    isEnabled: (name) => enabled.has(name),
    list: () =>
      tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        enabled: enabled.has(tool.name),
        tool,
      })),
    setEnabled(name, on) {
      if (!byName.has(name)) return false;
      if (on) enabled.add(name);
      else enabled.delete(name);
      return true;
    },
    schemas: () =>
      tools
        .filter((tool) => enabled.has(tool.name))
        .map((tool) => ({
          type: 'function',
          function: { name: tool.name, description: tool.description, parameters: tool.parameters },
        })),
    unknownEnabled: options.enabled.filter((name) => !byName.has(name)),
  };
}

import type { Tool as OllamaTool } from 'ollama';
import { describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../src/config/tool-names.js';
import { BUILTIN_TOOLS, createToolRegistry } from '../../src/tools/registry.js';

describe('createToolRegistry', () => {
  it('ships the six built-in tools, exactly the names the config file accepts', () => {
    expect(BUILTIN_TOOLS.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
    expect(TOOL_NAMES).toHaveLength(6);
  });

  it('enables only the configured tools and reports unknown names', () => {
    const registry = createToolRegistry(BUILTIN_TOOLS, { enabled: ['read_file', 'get_time', 'teleport'] });
    expect(registry.list().map((listing) => [listing.name, listing.enabled])).toEqual([
      ['read_file', true],
      ['list_directory', false],
      ['search_files', false],
      ['get_time', true],
      ['write_file', false],
      ['run_command', false],
    ]);
    expect(registry.unknownEnabled).toEqual(['teleport']);
    expect(registry.get('write_file')?.name).toBe('write_file');
    expect(registry.get('teleport')).toBeUndefined();
  });

  it('offers Ollama the schemas of enabled tools only, and follows setEnabled', () => {
    const registry = createToolRegistry(BUILTIN_TOOLS, { enabled: ['get_time'] });
    expect(registry.schemas().map((schema) => schema.function.name)).toEqual(['get_time']);
    expect(registry.setEnabled('run_command', true)).toBe(true);
    expect(registry.setEnabled('get_time', false)).toBe(true);
    expect(registry.setEnabled('teleport', true)).toBe(false);
    const schemas = registry.schemas();
    expect(schemas).toEqual([
      {
        type: 'function',
        function: {
          name: 'run_command',
          description: expect.any(String),
          parameters: { type: 'object', properties: { command: expect.any(Object) }, required: ['command'] },
        },
      },
    ]);
    // The schema type must stay assignable to the official client's Tool type.
    const asOllama: OllamaTool[] = schemas;
    expect(asOllama).toHaveLength(1);
  });

  it('rejects two tools with the same name', () => {
    expect(() => createToolRegistry([BUILTIN_TOOLS[0]!, BUILTIN_TOOLS[0]!], { enabled: [] })).toThrow(
      /two tools/,
    );
  });

  it('declares every required parameter among the properties', () => {
    for (const tool of BUILTIN_TOOLS) {
      for (const name of tool.parameters.required ?? [])
        expect(tool.parameters.properties).toHaveProperty(name);
    }
  });
});

describe('MCP tools in the registry', () => {
  const mcp = (name: string) => ({
    ...BUILTIN_TOOLS[3],
    name,
    mcp: { server: 's', tool: name, confirm: true },
  });

  it('lists them after the built-ins, enabled, and keeps one the user turned off off when the list is replaced', () => {
    const registry = createToolRegistry(BUILTIN_TOOLS, { enabled: ['get_time'] });
    registry.setMcpTools([mcp('s__a'), mcp('s__b'), mcp('read_file')]);
    expect(
      registry
        .list()
        .map((l) => l.name)
        .slice(-2),
    ).toEqual(['s__a', 's__b']);
    expect(registry.schemas().map((s) => s.function.name)).toEqual(['get_time', 's__a', 's__b']);
    expect(registry.setEnabled('s__a', false)).toBe(true);
    registry.setMcpTools([mcp('s__a'), mcp('s__c')]);
    expect(registry.schemas().map((s) => s.function.name)).toEqual(['get_time', 's__c']);
    expect(registry.get('s__b')).toBeUndefined();
  });

  it('knows find_tools without listing it', () => {
    const registry = createToolRegistry(BUILTIN_TOOLS, { enabled: [] });
    registry.setFinder({ ...BUILTIN_TOOLS[3], name: 'find_tools' });
    expect(registry.get('find_tools')?.name).toBe('find_tools');
    expect(registry.isEnabled('find_tools')).toBe(true);
    expect(registry.list().some((l) => l.name === 'find_tools')).toBe(false);
    expect(registry.schemas()).toEqual([]);
  });
});

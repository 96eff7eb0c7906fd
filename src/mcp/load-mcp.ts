/**
 * Loads the MCP client (the SDK, ~0.5 MB) on demand. In dist/ochat.cjs (scripts/build.mjs,
 * ENTRY_ALSO): the one-shot runs from a code cache, which cannot import().
 */
export function loadMcpRuntime(): Promise<typeof import('./mcp-runtime.js')> {
  return import('./mcp-runtime.js');
}

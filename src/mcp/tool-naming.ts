/** Longest tool name sent: the limit OpenAI-style tool calling (and so many chat templates) keeps to. */
export const MAX_TOOL_NAME_CHARS = 64;

/** Between the server's name and the tool's in what the model sees: `everything__echo`. */
export const SERVER_SEPARATOR = '__';

/** One MCP tool to be named for the model. */
export interface ToolToName {
  server: string;
  tool: string;
}

/** A short deterministic digest (FNV-1a, base 36) that tells shortened names apart. */
function digest(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36).padStart(7, '0');
}

/**
 * The name the model sees for `tool` of `server`: `<server>__<tool>`, with every character
 * other than letters, digits, `_` and `-` made `_`; one longer than {@link MAX_TOOL_NAME_CHARS}
 * keeps its head and ends with a digest of the whole original, so it stays the same every run.
 */
export function modelToolName(server: string, tool: string): string {
  const original = `${server}${SERVER_SEPARATOR}${tool}`;
  const safe = original.replace(/[^A-Za-z0-9_-]/g, '_');
  if (safe.length <= MAX_TOOL_NAME_CHARS) return safe;
  const tag = `_${digest(original)}`;
  return `${safe.slice(0, MAX_TOOL_NAME_CHARS - tag.length)}${tag}`;
}

/**
 * Names for every tool, in order, none equal to a name in `taken` (the built-ins) or to another:
 * a name already used gets `_2`, `_3`… (shortened to fit), first come first served, so the same
 * configuration always gives the same names.
 */
export function assignToolNames(tools: readonly ToolToName[], taken: Iterable<string>): string[] {
  const used = new Set(taken);
  return tools.map(({ server, tool }) => {
    const base = modelToolName(server, tool);
    let name = base;
    for (let n = 2; used.has(name); n++) {
      const suffix = `_${n}`;
      name = `${base.slice(0, MAX_TOOL_NAME_CHARS - suffix.length)}${suffix}`;
    }
    used.add(name);
    return name;
  });
}

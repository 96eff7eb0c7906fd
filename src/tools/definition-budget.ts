import type { ToolSchema } from '../backend/interfaces.js';

/** Which tool definitions a request carries when they would take too much of the window. */
export interface DefinitionPlan {
  /** Sent in full, in registration order (a stable prefix for the server's prompt cache), `find_tools` last. */
  resident: ToolSchema[];
  /** Held back: the model finds them with `find_tools`. */
  deferred: ToolSchema[];
  /** Tokens all the definitions would take. */
  totalTokens: number;
}

/**
 * Plans the tool definitions of one request. When all of them fit `maxTokens`, all are sent and
 * `finder` is not. Otherwise `finder` is sent with as many others as fit beside it, the most
 * recently used (or found) first, then in registration order; the rest are deferred.
 */
export function planToolDefinitions(input: {
  schemas: readonly ToolSchema[];
  /** Tool names, the most recently used or found first. */
  recent: readonly string[];
  maxTokens: number;
  cost: (schema: ToolSchema) => number;
  finder: ToolSchema;
}): DefinitionPlan {
  const { schemas, recent, maxTokens, cost, finder } = input;
  const costs = new Map(schemas.map((schema) => [schema.function.name, cost(schema)]));
  const totalTokens = [...costs.values()].reduce((sum, tokens) => sum + tokens, 0);
  if (totalTokens <= maxTokens) return { resident: [...schemas], deferred: [], totalTokens };
  const byName = new Map(schemas.map((schema) => [schema.function.name, schema]));
  const order = [...new Set([...recent.filter((name) => byName.has(name)), ...byName.keys()])];
  let left = maxTokens - cost(finder);
  const kept = new Set<string>();
  for (const name of order) {
    const tokens = costs.get(name) ?? 0;
    if (tokens > left) continue;
    kept.add(name);
    left -= tokens;
  }
  return {
    resident: [...schemas.filter((schema) => kept.has(schema.function.name)), finder],
    deferred: schemas.filter((schema) => !kept.has(schema.function.name)),
    totalTokens,
  };
}

/** The tools a `find_tools` query matches best: each word in the name or description counts. */
export function matchTools(query: string, schemas: readonly ToolSchema[], limit: number): ToolSchema[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1);
  if (words.length === 0) return schemas.slice(0, limit);
  const scored = schemas.map((schema, index) => {
    const name = schema.function.name.toLowerCase();
    const description = schema.function.description.toLowerCase();
    const score = words.reduce(
      (sum, word) => sum + (name.includes(word) ? 3 : 0) + (description.includes(word) ? 1 : 0),
      0,
    );
    return { schema, score, index };
  });
  return scored
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, limit)
    .map((entry) => entry.schema);
}

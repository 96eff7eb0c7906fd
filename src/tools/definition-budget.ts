import type { ToolSchema } from '../backend/interfaces.js';
import { formatTokens } from '../conversation/format-tokens.js';

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
 * `finder` is not. Otherwise `finder` is sent with as many others as fit beside it, in this order:
 * the built-ins (the most recently used first), so that built-ins that fit on their own are never
 * deferred for MCP tools; then the other tools the model used (most recent first); then those
 * `find_tools` found for it (most recent first: a find is a guess, a call is a need); then the rest
 * in registration order. What does not fit is deferred.
 */
export function planToolDefinitions(input: {
  schemas: readonly ToolSchema[];
  /** Whether a tool is one of ochat's own (not an MCP server's). */
  builtIn: (name: string) => boolean;
  /** Tool names the model called, the most recent first. */
  used: readonly string[];
  /** Tool names `find_tools` returned, the most recent first. */
  found: readonly string[];
  maxTokens: number;
  cost: (schema: ToolSchema) => number;
  finder: ToolSchema;
}): DefinitionPlan {
  const { schemas, builtIn, used, found, maxTokens, cost, finder } = input;
  const costs = new Map(schemas.map((schema) => [schema.function.name, cost(schema)]));
  const totalTokens = [...costs.values()].reduce((sum, tokens) => sum + tokens, 0);
  if (totalTokens <= maxTokens) return { resident: [...schemas], deferred: [], totalTokens };
  const all = [...costs.keys()];
  const known = (names: readonly string[]) => names.filter((name) => costs.has(name));
  const order = [
    ...new Set([
      ...known(used).filter(builtIn),
      ...all.filter(builtIn),
      ...known(used),
      ...known(found),
      ...all,
    ]),
  ];
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

/**
 * The tools a `find_tools` query matches best. A query that is a tool's exact name, or the name
 * its server gave it (`get-sum` for `everything__get-sum`), brings that tool alone; otherwise each
 * word in the name or description counts.
 */
export function matchTools(query: string, schemas: readonly ToolSchema[], limit: number): ToolSchema[] {
  const exact = query.trim().toLowerCase();
  const named = schemas.filter((schema) => {
    const name = schema.function.name.toLowerCase();
    return exact !== '' && (name === exact || name.endsWith(`__${exact}`));
  });
  if (named.length > 0) return named.slice(0, limit);
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

/** What the first deferral notice says. */
export interface DeferralFigures {
  plan: DefinitionPlan;
  mcpCount: number;
  builtIns: number;
  numCtx: number;
  /** `tools.max_definitions_share`. */
  share: number;
  isBuiltIn: (name: string) => boolean;
}

/** Names for a notice: the first eight, then how many more. */
function someNames(names: readonly string[]): string {
  const shown = names.slice(0, 8).join(', ');
  return names.length > 8 ? `${shown} and ${names.length - 8} more` : shown;
}

/** The notice of the first deferral: the figures, and any built-in held back named. */
export function deferralNotice(figures: DeferralFigures): string {
  const { plan, mcpCount, builtIns, numCtx, share } = figures;
  const percent = Math.round((plan.totalTokens / numCtx) * 100);
  const s = (n: number) => (n === 1 ? '' : 's');
  // The share counts every definition: the built-ins' are named beside the MCP tools'.
  const deferredBuiltIns = plan.deferred.map((schema) => schema.function.name).filter(figures.isBuiltIn);
  const builtInsToo =
    deferredBuiltIns.length > 0
      ? ` The built-ins alone do not fit the share: ${someNames(deferredBuiltIns)} deferred too.`
      : '';
  return `MCP: ${mcpCount} tool${s(mcpCount)}, ~${formatTokens(plan.totalTokens)} tokens with the ${builtIns} built-in${s(builtIns)} = ${percent}% of the ${formatTokens(numCtx)} window (over tools.max_definitions_share, ${Math.round(share * 100)}%); ${plan.deferred.length} deferred, found by the model with find_tools.${builtInsToo}`;
}

/** The notice of definitions a request stops sending, to make room for tools used or found. */
export function droppedNotice(names: readonly string[], share: number): string {
  return `Tool definitions no longer sent (tools.max_definitions_share, ${Math.round(share * 100)}%, makes room for the tools the model used or found): ${someNames(names)}; find_tools finds them again.`;
}

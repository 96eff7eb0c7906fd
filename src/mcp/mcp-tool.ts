import { oneLine } from '../text/shorten.js';
import { failureReason } from '../tools/failure-line.js';
import type { Tool, ToolOutcome } from '../tools/tool.js';
import { mcpErrorText } from './mcp-error-text.js';
import type { ServerConnection } from './server-connection.js';
import type { ListedTool } from './server-state.js';
import { toolResultText } from './tool-result-text.js';
import { MAX_TOOL_DESCRIPTION_CHARS, shortDescription, toToolParameters } from './tool-schema.js';

/** The call's arguments on one line, as the tool line and the confirmation show them. */
export function argumentsLine(args: Record<string, unknown>, max = 120): string {
  const entries = Object.entries(args);
  if (entries.length === 0) return '';
  return oneLine(JSON.stringify(args), max);
}

/** `"MCP-ECHO-42"`, `a=2 b=3`: the arguments as the summary line names them. */
function argumentsShort(args: Record<string, unknown>): string {
  const entries = Object.entries(args).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return '()';
  if (entries.length === 1 && typeof entries[0][1] === 'string')
    return JSON.stringify(oneLine(entries[0][1], 60));
  return oneLine(entries.map(([key, value]) => `${key}=${JSON.stringify(value)}`).join(' '), 80);
}

/** `1 line`, `12 lines`. */
function lineCount(text: string): string {
  const lines = text === '' ? 0 : text.split('\n').length;
  return `${lines} line${lines === 1 ? '' : 's'}`;
}

/**
 * The deterministic one-line summary of an MCP call, kept in the tool log through compaction:
 * `everything__echo: "MCP-ECHO-42" → 1 line`, `… → 1 image, 1 line`, `… → error: <first line>`.
 */
export function mcpSummaryLine(name: string, args: Record<string, unknown>, outcome: ToolOutcome): string {
  const head = `${name}: ${argumentsShort(args)}`;
  const skipped = outcome.details?.skipped;
  if (skipped === 'cancelled') return `${head} → cancelled`;
  // The same reason a built-in's line gives (`declined by the user`, `needs confirmation; -y allows it`).
  if (typeof skipped === 'string') return `${head} → not run (${failureReason(outcome)})`;
  if (!outcome.ok) return `${head} → error: ${oneLine(outcome.output.replace(/^Error: /, ''), 80)}`;
  const kinds = (outcome.details?.kinds ?? {}) as Record<string, number>;
  const extra = Object.entries(kinds)
    .filter(([kind]) => kind !== 'text')
    .map(([kind, count]) => `${count} ${kind}${count === 1 || kind === 'structured' ? '' : 's'}`);
  return `${head} → ${[...extra, lineCount(outcome.output)].join(', ')}`;
}

/** A progress notification as the status line shows it: `3/10 Step 3`. */
function progressText(progress: { progress: number; total?: number; message?: string }): string {
  const count = progress.total ? `${progress.progress}/${progress.total}` : String(progress.progress);
  return progress.message ? `${count} ${oneLine(progress.message, 40)}` : count;
}

/**
 * A tool of an MCP server as ochat's {@link Tool}: validated, confirmed and summarized like a
 * built-in; run by `tools/call` with the turn's abort signal (the SDK sends
 * `notifications/cancelled`), progress passed to the status line.
 */
export function mcpTool(connection: ServerConnection, listed: ListedTool, name: string): Tool {
  const description =
    shortDescription(listed.description, MAX_TOOL_DESCRIPTION_CHARS) ??
    `${listed.name} (MCP server ${connection.name})`;
  return {
    name,
    description,
    parameters: toToolParameters(listed.inputSchema),
    mcp: { server: connection.name, tool: listed.name, confirm: connection.config.confirm },
    keyArgument: (args) => argumentsLine(args),
    async run(args, ctx): Promise<ToolOutcome> {
      const state = connection.state;
      if (state.kind !== 'ready') {
        const why = state.kind === 'failed' ? `failed: ${state.reason}` : state.kind;
        return {
          ok: false,
          output: `Error: the MCP server ${connection.name} is ${why}. Its tools cannot run now; the user can restart it with /mcp restart ${connection.name}.`,
          details: { error: `server ${state.kind}` },
        };
      }
      try {
        const result = await connection.call(listed.name, args, {
          ...(ctx.signal && { signal: ctx.signal }),
          ...(ctx.onProgress && { onProgress: (p) => ctx.onProgress?.(progressText(p)) }),
        });
        const text = toolResultText(result);
        return {
          ok: text.ok,
          output: text.ok ? text.text : `Error: ${text.text || `${name} reported an error`}`,
          details: { kinds: text.kinds },
        };
      } catch (error) {
        if (ctx.signal?.aborted) {
          return {
            ok: false,
            output: 'The tool call was cancelled by the user.',
            details: { skipped: 'cancelled' },
          };
        }
        const message = mcpErrorText(error);
        return {
          ok: false,
          output: `Error: ${name} failed: ${message}`,
          details: { error: oneLine(message) },
        };
      }
    },
    summaryLine: (args, outcome) => mcpSummaryLine(name, args, outcome),
  };
}

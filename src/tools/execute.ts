import type { ReceivedToolCall } from '../conversation/message.js';
import { oneLine } from '../text/shorten.js';
import { type Approval, type Confirmer, wholeToolApproval } from './confirmation.js';
import type { SkipKind } from './failure-line.js';
import type { ToolRegistry } from './registry.js';
import { toolSummaryLine } from './summary-line.js';
import type { Tool, ToolContext, ToolOutcome, ToolPreview } from './tool.js';
import { validateToolArguments } from './validate-args.js';

export {
  type Approval,
  autoApprove,
  type ConfirmAnswer,
  type ConfirmationPolicy,
  type Confirmer,
  type ConfirmRequest,
  createConfirmationPolicy,
  nobodyToAsk,
} from './confirmation.js';

import { describeError } from '../text/describe-error.js';

/** One tool call as it was handled: what goes into the `tool` message and the UI line. */
export interface ToolExecution {
  name: string;
  /** The arguments as the tool saw them (after coercion), or as the model sent them when refused. */
  args: Record<string, unknown>;
  keyArgument: string;
  outcome: ToolOutcome;
  /** The deterministic one-line summary, to be stored as `Message.tool_summary`. */
  summary: string;
}

/** What executeToolCall needs from its caller. */
export interface ExecuteDeps {
  registry: ToolRegistry;
  ctx: ToolContext;
  /** Whether this call must be asked about (e.g. `policy.needsConfirmation`). */
  needsConfirmation: (name: string, args: Record<string, unknown>, ctx: ToolContext) => boolean;
  confirm: Confirmer;
  /** Called on an `always` answer with what it approves, so the policy stops asking (`policy.approve`). */
  approve?: (approval: Approval) => void;
  /** Told just before the tool runs (approved, arguments valid): from then on it may have had effects. */
  onStart?: () => void;
}

/** Text the model receives when the user declines a call. */
export const DECLINED_OUTPUT = 'The user declined to run this tool.';

/** Text the model receives when a call needs a confirmation nobody could give (one-shot mode without -y). */
export const UNCONFIRMED_OUTPUT =
  "Not run: this tool needs the user's confirmation, and this run of ochat cannot ask for it (one-shot mode without -y; the user did not decline). Answer without it, and say that running ochat again with -y allows it.";

/**
 * Runs one tool call the model made: checks the tool exists and is enabled, validates the
 * arguments, asks for confirmation where the policy wants it, runs the tool and summarizes the
 * call. Every failure becomes an error outcome the model can act on; this never throws.
 */
export async function executeToolCall(call: ReceivedToolCall, deps: ExecuteDeps): Promise<ToolExecution> {
  const name = String(call.function?.name ?? '');
  const rawArgs = parseArguments(call.function?.arguments);
  const finish = (
    args: Record<string, unknown>,
    keyArgument: string,
    outcome: ToolOutcome,
  ): ToolExecution => ({
    name,
    args,
    keyArgument,
    outcome,
    summary: toolSummaryLine(deps.registry, name, args, outcome),
  });
  const argsObject = isRecord(rawArgs) ? rawArgs : {};

  const available = () =>
    deps.registry
      .list()
      .filter((listing) => listing.enabled)
      .map((listing) => listing.name)
      .join(', ') || 'none';
  if (call.malformed) {
    const output = `Error: malformed tool call: ${call.malformed}. Call a tool by its name with an object of arguments; available: ${available()}.`;
    // The tool's own template would describe arguments it never got.
    const summary = `❌ malformed call${name ? ` of ${oneLine(name, 40)}` : ''} (${call.malformed})`;
    return { ...finish(argsObject, '', skipped(output, 'malformed')), summary };
  }

  const tool = deps.registry.get(name);
  if (!tool || !deps.registry.isEnabled(name)) {
    const problem = tool ? `tool "${name}" is disabled` : `unknown tool "${name}"`;
    const output = `Error: ${problem}; available: ${available()}.`;
    return finish(argsObject, '', skipped(output, tool ? 'disabled' : 'unknown-tool'));
  }

  const check = validateToolArguments(tool.parameters, rawArgs);
  if (!check.ok) {
    const output = `Error: invalid arguments for ${name}: ${check.problems.join('; ')}. Call it again with corrected arguments.`;
    return finish(argsObject, keyArgumentOf(tool, argsObject), skipped(output, 'invalid-arguments'));
  }
  const args = check.args;
  const keyArgument = keyArgumentOf(tool, args);

  const refused = refusalOf(tool, args, deps.ctx);
  if (refused) return finish(args, keyArgument, refused);

  if (deps.needsConfirmation(name, args, deps.ctx)) {
    const approval = approvalOf(tool, name, args, deps.ctx);
    const preview = await previewOf(tool, args, deps.ctx);
    let answer: Awaited<ReturnType<Confirmer>>;
    try {
      answer = await deps.confirm({ tool: name, args, keyArgument, approval, ...(preview && { preview }) });
    } catch (error) {
      return finish(
        args,
        keyArgument,
        skipped(`Error: could not ask the user: ${describeError(error)}`, 'cancelled'),
      );
    }
    if (answer.kind === 'no') return finish(args, keyArgument, skipped(DECLINED_OUTPUT, 'declined'));
    if (answer.kind === 'unasked') {
      return finish(args, keyArgument, skipped(UNCONFIRMED_OUTPUT, 'unconfirmed'));
    }
    if (answer.kind === 'instruct') {
      const output = `The user did not run the tool and says: ${answer.text}`;
      return finish(args, keyArgument, {
        ...skipped(output, 'instructed'),
        details: instructed(answer.text),
      });
    }
    // "always" on a call that can only be approved once (a compound command) is a plain yes.
    if (answer.kind === 'always' && approval) deps.approve?.(approval);
  }

  if (deps.ctx.signal?.aborted) {
    return finish(args, keyArgument, skipped('The tool call was cancelled by the user.', 'cancelled'));
  }
  try {
    deps.onStart?.();
    const outcome = await tool.run(args, deps.ctx);
    return finish(args, keyArgument, normalizeOutcome(outcome));
  } catch (error) {
    return finish(args, keyArgument, {
      ok: false,
      output: `Error: ${name} failed: ${describeError(error)}`,
      details: { error: oneLine(describeError(error)) },
    });
  }
}

/** What the model receives for a call that never ran: ochat ended (was killed) while it waited. */
export const NOT_RUN_OUTPUT =
  'Error: this tool call was not run: the session was closed before it ran. Call it again if it is still needed.';

/** What the model receives for a call that began to run and never finished: ochat ended (was killed) meanwhile. */
export const INTERRUPTED_OUTPUT =
  'Error: this tool call was interrupted: the session was closed while it ran, so its outcome is unknown (it may have run, and its effects may be in place). Check its effects before calling it again.';

/**
 * The result of a call left without one when the session was closed: every call gets a result,
 * so the next request is valid for every server and model. `started`: it had begun to run (a kill
 * while it ran), so it may have had its effects; otherwise it was never run (a kill while its
 * question was open).
 */
export function notRunToolCall(
  registry: ToolRegistry,
  call: ReceivedToolCall,
  started = false,
): ToolExecution {
  const name = String(call.function?.name ?? '');
  const raw = parseArguments(call.function?.arguments);
  const args = isRecord(raw) ? raw : {};
  const tool = registry.get(name);
  const outcome = started ? skipped(INTERRUPTED_OUTPUT, 'interrupted') : skipped(NOT_RUN_OUTPUT, 'closed');
  return {
    name,
    args,
    keyArgument: tool ? keyArgumentOf(tool, args) : '',
    outcome,
    summary: toolSummaryLine(registry, name, args, outcome),
  };
}

/** Some models send arguments as a JSON string rather than an object. */
function parseArguments(raw: unknown): unknown {
  if (raw === undefined || raw === null || raw === '') return {};
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** What "always" would approve for this call: the tool's own scope, else the whole tool. */
function approvalOf(
  tool: Pick<Tool, 'approvalScope'>,
  name: string,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Approval | null {
  if (!tool.approvalScope) return wholeToolApproval(name);
  try {
    const scope = tool.approvalScope(args, ctx);
    return scope && { tool: name, scope: scope.scope, covers: scope.covers };
  } catch {
    return null;
  }
}

/** The tool's refusal of the call before it is asked about; a check that throws refuses nothing. */
function refusalOf(
  tool: Pick<Tool, 'refusal'>,
  args: Record<string, unknown>,
  ctx: ToolContext,
): ToolOutcome | undefined {
  try {
    return tool.refusal?.(args, ctx);
  } catch {
    return undefined;
  }
}

/** The tool's preview of the call; none when it has none or fails to make one. */
async function previewOf(
  tool: Pick<Tool, 'preview'>,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<ToolPreview | undefined> {
  try {
    return await tool.preview?.(args, ctx);
  } catch {
    return undefined;
  }
}

function keyArgumentOf(
  tool: { keyArgument(args: Record<string, unknown>): string },
  args: Record<string, unknown>,
): string {
  try {
    const key = tool.keyArgument(args);
    return typeof key === 'string' ? key : String(key ?? '');
  } catch {
    return '';
  }
}

/** A tool that returns something malformed still yields a well-formed outcome. */
function normalizeOutcome(outcome: ToolOutcome | undefined): ToolOutcome {
  if (!outcome || typeof outcome !== 'object')
    return { ok: false, output: 'Error: the tool returned no result.' };
  return {
    ...outcome,
    ok: outcome.ok === true,
    output: typeof outcome.output === 'string' ? outcome.output : String(outcome.output ?? ''),
  };
}

function skipped(output: string, kind: SkipKind): ToolOutcome {
  return { ok: false, output, details: { skipped: kind } };
}

function instructed(text: string): Record<string, unknown> {
  return { skipped: 'instructed' satisfies SkipKind, instruction: text };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

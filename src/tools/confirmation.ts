import type { ToolContext, ToolPreview } from './tool.js';

/** The user's answer to "run this tool?": `always` = yes, and remember the call's approval. */
export type ConfirmAnswer =
  | { kind: 'yes' }
  | { kind: 'no' }
  /** Nobody could be asked (one-shot mode without `--yes`): not run, and not a decline either. */
  | { kind: 'unasked' }
  | { kind: 'always' }
  | { kind: 'instruct'; text: string };

/**
 * What an "always" answer approves for the rest of the session: the calls of `tool` that
 * `covers` accepts, e.g. commands starting with `npm test`, or writes to one path.
 */
export interface Approval {
  tool: string;
  /** What it covers, as the prompt and `/tools` show it, e.g. `npm test …`; '' for every call. */
  scope: string;
  covers(args: Record<string, unknown>, ctx: ToolContext): boolean;
}

/** What the user is asked to confirm. */
export interface ConfirmRequest {
  tool: string;
  args: Record<string, unknown>;
  /** The argument to show, e.g. the command or the path. */
  keyArgument: string;
  /** What "always" would approve; null when this call can only be approved once (e.g. `a; b`). */
  approval: Approval | null;
  /** What the call will do (e.g. the diff of a write), when its tool can tell. */
  preview?: ToolPreview;
}

/** Asks the user (or decides for them) whether a tool call may run. */
export type Confirmer = (request: ConfirmRequest) => Promise<ConfirmAnswer>;

/**
 * Which calls need the user's confirmation: those of the tools in the config's `tools.confirm`,
 * unless an approval given this session covers them.
 */
export interface ConfirmationPolicy {
  /** Whether this call must be asked about. */
  needsConfirmation(name: string, args: Record<string, unknown>, ctx: ToolContext): boolean;
  /** Whether the tool asks before (some of) its calls: listed in `tools.confirm`, not approved whole. */
  asksFirst(name: string): boolean;
  /** Remembers an "always" answer (an approval already given is not added twice). */
  approve(approval: Approval): void;
  /** The approvals given this session, oldest first (`/tools` numbers them from 1). */
  approvals(): readonly Approval[];
  /** Withdraws approval number `which` (from 1) or all of them; returns those withdrawn. */
  revoke(which: number | 'all'): Approval[];
}

/**
 * Creates a policy where the tools in `confirmList` (or those it says yes to: an MCP server's
 * tools ask unless its config says `confirm: false`) ask before running until approved.
 */
export function createConfirmationPolicy(
  confirmList: readonly string[] | ((name: string) => boolean),
): ConfirmationPolicy {
  const listed = new Set(typeof confirmList === 'function' ? [] : confirmList);
  const asks = typeof confirmList === 'function' ? confirmList : (name: string) => listed.has(name);
  const given: Approval[] = [];
  const wholeTool = (name: string) => given.some((a) => a.tool === name && a.scope === '');
  // Closures, not methods on `this`: callers pass these functions around detached.
  return {
    needsConfirmation: (name, args, ctx) =>
      asks(name) && !given.some((a) => a.tool === name && coversSafely(a, args, ctx)),
    asksFirst: (name) => asks(name) && !wholeTool(name),
    approve: (approval) => {
      if (!given.some((a) => a.tool === approval.tool && a.scope === approval.scope)) given.push(approval);
    },
    approvals: () => [...given],
    revoke: (which) => {
      if (which === 'all') return given.splice(0);
      return which >= 1 ? given.splice(which - 1, 1) : [];
    },
  };
}

/** A scope that throws covers nothing: asking once more is the safe side. */
function coversSafely(approval: Approval, args: Record<string, unknown>, ctx: ToolContext): boolean {
  try {
    return approval.covers(args, ctx) === true;
  } catch {
    return false;
  }
}

/** An approval of every call of `tool`: "always" on a tool that has no narrower scope. */
export function wholeToolApproval(tool: string): Approval {
  return { tool, scope: '', covers: () => true };
}

/** Approves every call: one-shot mode with `--yes`. */
export const autoApprove: Confirmer = async () => ({ kind: 'yes' });

/** Runs no call that needs confirmation, since nobody can give it: one-shot mode without `--yes`. */
export const nobodyToAsk: Confirmer = async () => ({ kind: 'unasked' });

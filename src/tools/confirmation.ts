/** The user's answer to "run this tool?": `always` = yes, and do not ask again this session. */
export type ConfirmAnswer =
  | { kind: 'yes' }
  | { kind: 'no' }
  | { kind: 'always' }
  | { kind: 'instruct'; text: string };

/** What the user is asked to confirm. */
export interface ConfirmRequest {
  tool: string;
  args: Record<string, unknown>;
  /** The argument to show, e.g. the command or the path. */
  keyArgument: string;
}

/** Asks the user (or decides for them) whether a tool call may run. */
export type Confirmer = (request: ConfirmRequest) => Promise<ConfirmAnswer>;

/** Which tools need the user's confirmation, remembering the ones answered "always" this session. */
export interface ConfirmationPolicy {
  needsConfirmation(name: string): boolean;
  /** Called on an `always` answer: the tool runs unasked for the rest of the session. */
  allowAlways(name: string): void;
}

/** Creates a policy where the tools in `confirmList` need confirmation until allowed "always". */
export function createConfirmationPolicy(confirmList: readonly string[]): ConfirmationPolicy {
  const confirmed = new Set(confirmList);
  // Closures, not methods on `this`: callers pass these functions around detached.
  return {
    needsConfirmation: (name) => confirmed.has(name),
    allowAlways: (name) => {
      confirmed.delete(name);
    },
  };
}

/** Approves every call: one-shot mode with `--yes`. */
export const autoApprove: Confirmer = async () => ({ kind: 'yes' });

/** Declines every call that needs confirmation: one-shot mode without `--yes`. */
export const autoDecline: Confirmer = async () => ({ kind: 'no' });

import { type ChatBackend, noModelsAdvice, type ServerIdentity } from '../../backend/chat-backend.js';
import type { InstalledModel, ModelInfo } from '../../backend/interfaces.js';
import { resolveNumCtx } from './num-ctx.js';

/** No model was named and none could be chosen for the user. */
export class NoModelChosenError extends Error {
  override readonly name = 'NoModelChosenError';

  constructor(
    message: string,
    /** The models installed, from which the user may pick (several, or none). */
    readonly installed: readonly InstalledModel[] = [],
  ) {
    super(message);
  }
}

/**
 * The model to chat with: `-m` > config `model` > the last model used > the only installed one.
 * Asks the server only when the first three are empty; `server` words what to do when it has none.
 */
export async function chooseModel(
  sources: { flag?: string; config?: string; lastUsed?: string },
  listInstalled: () => Promise<InstalledModel[]>,
  server?: ServerIdentity,
): Promise<string> {
  const named = sources.flag ?? sources.config ?? sources.lastUsed;
  if (named) return named;
  const installed = await listInstalled();
  if (installed.length === 1) return installed[0].name;
  if (installed.length === 0) {
    throw new NoModelChosenError(`${noModelsAdvice(server)}, then run ochat again.`);
  }
  const names = installed.map((m) => `  ${m.name}`).join('\n');
  throw new NoModelChosenError(
    `Choose a model with -m <name> (or set \`model:\` in the config). Installed:\n${names}`,
    installed,
  );
}

/** A model ready to chat: what the server says of it, and the window ochat will send every time. */
export interface ConnectedModel {
  name: string;
  info: ModelInfo;
  numCtx: number;
  /** Where `numCtx` came from, for the banner and `/context`. */
  numCtxSource: string;
  /** The requested window, when it was larger than the model's trained maximum. */
  cappedFrom?: number;
  /** The window asked for (flag or config), when it was refused as smaller than ochat needs: `numCtx` is the model's own instead. */
  refusedNumCtx?: number;
}

/** Asks the server about `name` and decides its `num_ctx` once (DESIGN §5: changing it reloads). */
export async function connectModel(
  backend: ChatBackend,
  name: string,
  numCtx: { flag?: number; config?: number },
  signal?: AbortSignal,
): Promise<ConnectedModel> {
  const info = await backend.showModel(name, signal);
  const resolved = resolveNumCtx({
    flag: numCtx.flag,
    config: numCtx.config,
    server: info.serverWindow?.tokens,
    modelfile: info.numCtxParam,
    trained: info.trainedContext,
  });
  return {
    name,
    info,
    numCtx: resolved.numCtx,
    numCtxSource: resolved.source,
    cappedFrom: resolved.cappedFrom,
  };
}

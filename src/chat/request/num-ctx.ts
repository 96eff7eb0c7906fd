/** The context window ochat asks for when neither the user nor the Modelfile sets one. */
export const DEFAULT_NUM_CTX = 8192;

/** Where each candidate value of num_ctx comes from. */
export interface NumCtxSources {
  /** `--num-ctx` on the command line. */
  flag?: number;
  /** `options.num_ctx` in the config file. */
  config?: number;
  /** The window an OpenAI-compatible server runs the model with (it cannot be asked for another). */
  server?: number;
  /** `PARAMETER num_ctx` in the model's Modelfile (from /api/show). */
  modelfile?: number;
  /** The model's trained context length: the most it can use. */
  trained?: number;
}

/** The num_ctx ochat sends with every request, and why. */
export interface ResolvedNumCtx {
  numCtx: number;
  source: 'flag' | 'config' | 'server' | 'modelfile' | 'default';
  /** Set when the chosen value exceeded the trained maximum and was lowered to it. */
  cappedFrom?: number;
}

/**
 * Decides num_ctx once per model: `--num-ctx` > config `options.num_ctx` > the server's own
 * window (OpenAI-compatible servers) > Modelfile > 8192,
 * capped at the trained maximum when known (a larger window only wastes memory and degrades
 * output). A flag or config value that is not a positive integer is a caller bug and throws; a
 * nonsensical Modelfile or trained value from the server is ignored.
 */
export function resolveNumCtx(sources: NumCtxSources): ResolvedNumCtx {
  for (const source of ['flag', 'config'] as const) {
    const value = sources[source];
    if (value !== undefined && !isPositiveInteger(value)) {
      throw new RangeError(`num_ctx from ${source} must be a positive integer, got ${value}`);
    }
  }
  const chosen: Pick<ResolvedNumCtx, 'numCtx' | 'source'> =
    sources.flag !== undefined
      ? { numCtx: sources.flag, source: 'flag' }
      : sources.config !== undefined
        ? { numCtx: sources.config, source: 'config' }
        : isPositiveInteger(sources.server)
          ? { numCtx: sources.server, source: 'server' }
          : isPositiveInteger(sources.modelfile)
            ? { numCtx: sources.modelfile, source: 'modelfile' }
            : { numCtx: DEFAULT_NUM_CTX, source: 'default' };
  const trained = sources.trained;
  if (isPositiveInteger(trained) && chosen.numCtx > trained) {
    return { numCtx: trained, source: chosen.source, cappedFrom: chosen.numCtx };
  }
  return chosen;
}

function isPositiveInteger(value: number | undefined): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

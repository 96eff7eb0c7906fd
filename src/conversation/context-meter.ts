import { calibrateCharsPerToken, calibrationSampleFor } from './calibration.js';
import type { WireMessage } from './message.js';
import { estimateMessagesTokens, estimateToolDefinitionsTokens } from './token-estimate.js';

/** The server's counts for one reply, tied to the request that produced them. */
export interface ReplyCounts {
  /** What was sent: the messages and the tool definitions. */
  view: WireMessage[];
  tools: readonly unknown[];
  promptEvalCount: number;
  evalCount: number;
  /**
   * The count is always the whole prompt, cached or not (an OpenAI-compatible server's
   * `usage.prompt_tokens`): a count well below what was sent is a cut wherever it happens.
   */
  wholePrompt?: boolean;
  /** Transcript length once the reply was appended: later messages are estimated on top. */
  transcriptLength: number;
  /** Compaction records in force when sent: a new one invalidates the server's count. */
  recordCount: number;
  /**
   * The estimate of the next request as the chat stands with this reply appended, taken after
   * calibration: later requests are counted as the server's count plus how far their estimate
   * moved from it, so a view that changed, not only grew (a tool output no longer shortened once
   * its turn is not the newest), is counted as sent.
   */
  estimateNext?: () => number;
}

/** Ollama dropped part of the prompt: it saw fewer tokens than ochat sent. */
export interface Truncation {
  sentTokens: number;
  evaluatedTokens: number;
}

/** The server's count of the last reply's request and reply, and where in the chat it was taken. */
export interface MeterAnchor {
  tokens: number;
  /** Transcript length once the reply was appended: later messages are estimated on top. */
  transcriptLength: number;
  /** Compaction records in force when sent: a different count invalidates the anchor. */
  recordCount: number;
  /** The estimate of the next request when the count was taken (absent in older sessions: then only appended messages are added). */
  estimated?: number;
}

/** Everything the meter knows: saved with the session, so a resume measures as the original did. */
export interface MeterState {
  charsPerToken: number;
  anchor?: MeterAnchor;
  /** Whether the server's template renders the tool definitions, once a count showed it. */
  rendersTools?: boolean;
}

/**
 * Tracks how full the context window is: the server's real counts of the last reply, plus an
 * estimate of what was added since, with a chars-per-token ratio calibrated from those counts.
 */
export class ContextMeter {
  private anchor: MeterAnchor | undefined;
  /**
   * Whether the server's chat template renders the tool definitions (a count that held them was
   * seen): llama-server's chatml does not, LM Studio's templates do. Unknown until a count shows it.
   */
  private toolsRendered = false;
  /** A count of the whole prompt held none of the tool definitions sent (and none since held them). */
  private toolsUnrendered = false;
  /** Told of every change of state (the session recorder saves it); not of `restore`. */
  onChange: ((state: MeterState) => void) | undefined;

  constructor(
    /** Learned chars per token of the current model. */
    public charsPerToken: number,
  ) {}

  /** Forgets the server's count (new conversation, new model). */
  reset(charsPerToken: number): void {
    this.charsPerToken = charsPerToken;
    this.anchor = undefined;
    this.toolsRendered = false;
    this.toolsUnrendered = false;
    this.onChange?.(this.state);
  }

  /**
   * Forgets a server count that cannot follow a change of the request (one saved without its
   * estimate, by an older ochat); a count with its estimate follows any change through it.
   */
  forgetUntracked(): void {
    if (this.anchor && this.anchor.estimated === undefined) this.reset(this.charsPerToken);
  }

  /**
   * Whether the server's template renders the tool definitions: true once a count held them,
   * false once a count of the whole prompt did not, undefined until one shows it.
   */
  get rendersTools(): boolean | undefined {
    return this.toolsRendered ? true : this.toolsUnrendered ? false : undefined;
  }

  /** The meter's state, as saved. */
  get state(): MeterState {
    const rendersTools = this.rendersTools;
    return {
      charsPerToken: this.charsPerToken,
      ...(this.anchor && { anchor: { ...this.anchor } }),
      ...(rendersTools !== undefined && { rendersTools }),
    };
  }

  /** Puts a saved state back (a resume): not a change, so nobody is told. */
  restore(state: MeterState): void {
    this.charsPerToken = state.charsPerToken;
    this.anchor = state.anchor && { ...state.anchor };
    // Learnt from a count, not known again until the next one: a resume would count llama-server's unrendered definitions.
    this.toolsRendered = state.rendersTools === true;
    this.toolsUnrendered = state.rendersTools === false;
  }

  /**
   * Records a finished reply. Returns the truncation when the server evaluated well under what
   * was sent while the request was near the window (the failure compaction exists to prevent).
   */
  recordReply(counts: ReplyCounts, numCtx: number): Truncation | undefined {
    const messageTokens = estimateMessagesTokens(counts.view, this.charsPerToken);
    const toolTokens = estimateToolDefinitionsTokens(counts.tools, this.charsPerToken);
    const sentTokens = messageTokens + toolTokens;
    if (toolTokens > 0 && counts.promptEvalCount >= messageTokens + toolTokens / 2) this.toolsRendered = true;
    else if (toolTokens > 0 && counts.wholePrompt === true) this.toolsUnrendered = !this.toolsRendered;
    // Ollama: truncation can only happen near the window; below it a low count means a cached
    // prompt. A server that counts the whole prompt cut it wherever its count falls a quarter short
    // (the margin covers an estimate not yet calibrated) of what it renders: the tool definitions
    // only once a count showed its template renders them (llama-server's chatml does not). LM Studio
    // cuts at a window it may misreport.
    const truncated =
      counts.wholePrompt === true
        ? counts.promptEvalCount < (messageTokens + (this.toolsRendered ? toolTokens : 0)) * 0.75
        : sentTokens > numCtx * 0.9 && counts.promptEvalCount < sentTokens * 0.9;
    this.anchor = {
      // After a truncation the server counted what it kept; the next request resends it all.
      tokens: (truncated ? sentTokens : counts.promptEvalCount) + counts.evalCount,
      transcriptLength: counts.transcriptLength,
      recordCount: counts.recordCount,
    };
    // What an image costs is the model's own (256 to thousands of tokens), unknown here: a count
    // that includes images would put that guess into the ratio every text estimate divides by.
    const carriesImages = counts.view.some((message) => message.images?.length);
    if (!truncated && !carriesImages && counts.promptEvalCount > 0 && counts.promptEvalCount <= numCtx) {
      // The tool definitions are in the sample only where the template renders them: a count without
      // them over chars with them taught llama-server's chatml ~7 chars a token, every estimate short.
      const sample = calibrationSampleFor(
        counts.view,
        counts.promptEvalCount,
        this.toolsRendered ? counts.tools : [],
      );
      this.charsPerToken = calibrateCharsPerToken(this.charsPerToken, sample);
    }
    if (counts.estimateNext) this.anchor.estimated = counts.estimateNext();
    this.onChange?.(this.state);
    return truncated ? { sentTokens, evaluatedTokens: counts.promptEvalCount } : undefined;
  }

  /**
   * Tokens the next request will take: the server's count plus how far the request's estimate
   * moved since (or, for an anchor without one, an estimate of the messages appended since), or
   * (after a compaction changed the view) `estimateRequest()`: an estimate of the whole request
   * (messages and tool definitions).
   */
  used(estimateRequest: () => number, transcript: readonly WireMessage[], recordCount: number): number {
    const anchor = this.anchor;
    if (anchor && anchor.recordCount === recordCount && anchor.transcriptLength <= transcript.length) {
      if (anchor.estimated !== undefined)
        return Math.max(0, anchor.tokens + estimateRequest() - anchor.estimated);
      return (
        anchor.tokens + estimateMessagesTokens(transcript.slice(anchor.transcriptLength), this.charsPerToken)
      );
    }
    return estimateRequest();
  }
}

import { calibrateCharsPerToken, calibrationSampleFor } from '../conversation/calibration.js';
import type { WireMessage } from '../conversation/message.js';
import { estimateMessagesTokens, estimateToolDefinitionsTokens } from '../conversation/token-estimate.js';

/** The server's counts for one reply, tied to the request that produced them. */
export interface ReplyCounts {
  /** What was sent: the messages and the tool definitions. */
  view: WireMessage[];
  tools: readonly unknown[];
  promptEvalCount: number;
  evalCount: number;
  /** Transcript length once the reply was appended: later messages are estimated on top. */
  transcriptLength: number;
  /** Compaction records in force when sent: a new one invalidates the server's count. */
  recordCount: number;
}

/** Ollama dropped part of the prompt: it saw fewer tokens than ochat sent. */
export interface Truncation {
  sentTokens: number;
  evaluatedTokens: number;
}

/**
 * Tracks how full the context window is: the server's real counts of the last reply, plus an
 * estimate of what was added since, with a chars-per-token ratio calibrated from those counts.
 */
export class ContextMeter {
  private anchor: { tokens: number; transcriptLength: number; recordCount: number } | undefined;

  constructor(
    /** Learned chars per token of the current model. */
    public charsPerToken: number,
  ) {}

  /** Forgets the server's count (new conversation, new model). */
  reset(charsPerToken: number): void {
    this.charsPerToken = charsPerToken;
    this.anchor = undefined;
  }

  /**
   * Records a finished reply. Returns the truncation when the server evaluated well under what
   * was sent while the request was near the window (the failure compaction exists to prevent).
   */
  recordReply(counts: ReplyCounts, numCtx: number): Truncation | undefined {
    const sentTokens =
      estimateMessagesTokens(counts.view, this.charsPerToken) +
      estimateToolDefinitionsTokens(counts.tools, this.charsPerToken);
    // Truncation can only happen near the window; below it a low count means a cached prompt.
    const truncated = sentTokens > numCtx * 0.9 && counts.promptEvalCount < sentTokens * 0.9;
    this.anchor = {
      // After a truncation the server counted what it kept; the next request resends it all.
      tokens: (truncated ? sentTokens : counts.promptEvalCount) + counts.evalCount,
      transcriptLength: counts.transcriptLength,
      recordCount: counts.recordCount,
    };
    if (truncated) return { sentTokens, evaluatedTokens: counts.promptEvalCount };
    if (counts.promptEvalCount > 0 && counts.promptEvalCount <= numCtx) {
      const sample = calibrationSampleFor(counts.view, counts.promptEvalCount, counts.tools);
      this.charsPerToken = calibrateCharsPerToken(this.charsPerToken, sample);
    }
    return undefined;
  }

  /**
   * Tokens the next request will take: the server's count plus an estimate of the messages
   * appended since, or (after a compaction changed the view) `estimateRequest()`: an estimate of
   * the whole request (messages and tool definitions).
   */
  used(estimateRequest: () => number, transcript: readonly WireMessage[], recordCount: number): number {
    const anchor = this.anchor;
    if (anchor && anchor.recordCount === recordCount && anchor.transcriptLength <= transcript.length) {
      return (
        anchor.tokens + estimateMessagesTokens(transcript.slice(anchor.transcriptLength), this.charsPerToken)
      );
    }
    return estimateRequest();
  }
}

/**
 * One compaction, as stored in the session file. Records are appended, never edited; the
 * latest one is in force. The transcript itself is never rewritten.
 */
export interface CompactionRecord {
  /** Transcript index where the verbatim tail starts (always a user message). */
  upto: number;
  /** The summarizer's account of `transcript[0..upto)`, within the summary budget. */
  narrative: string;
  /**
   * What had to be cut from summaries that stayed over budget even after being condensed (the
   * last resort, reported to the user): the words removed and about how many tokens they were;
   * `endsLost`: replies the server cut off at their length limit, whose ends no one saw.
   */
  cut?: { text: string; tokens: number; endsLost?: number };
  /** One deterministic line per tool call before `upto` (never written by the LLM). */
  toolEntries: string[];
  /**
   * Exact details (paths, numbers, ids…) of the compacted messages the narrative did not keep,
   * verbatim with a few words of context, oldest first; shown beside the tool log (absent: none).
   */
  details?: ExactDetail[];
  /** Exact details the narrative was checked to keep verbatim: checked again by the next compaction. */
  keptDetails?: ExactDetail[];
  /** How many details were folded out of the list to fit its share, over all compactions so far. */
  detailsFolded?: number;
  /** The model that wrote the narrative. */
  model: string;
  /** ISO timestamp of the compaction. */
  at: string;
  /** `/compact <instructions>`: what this summary was asked to focus on (absent: none). */
  focus?: string;
  /** Estimated tokens of the model view before and after. */
  tokensBefore: number;
  tokensAfter: number;
}

/** An exact detail kept by compaction: its text, verbatim, and a few words of where it was said. */
export interface ExactDetail {
  text: string;
  /** The words around it, the detail itself as `…` ('' when it stood alone). */
  context: string;
  /** Taken from a pasted block (a log, a stack trace): folded before the details that were said. */
  pasted?: true;
}

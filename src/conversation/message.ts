/** Who wrote a message, as Ollama's chat API names it. */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** A tool call as Ollama sends it: whole, never a delta; `arguments` is an object. */
export interface ToolCall {
  id?: string;
  function: {
    index?: number;
    name: string;
    arguments: Record<string, unknown>;
  };
}

/**
 * A tool call as read from a reply: always well-formed enough to store and send back, and
 * `malformed` says why the server's call could not be read as one (it is answered with an error
 * result, never run, and `malformed` itself is never sent).
 */
export interface ReceivedToolCall extends ToolCall {
  malformed?: string;
}

/**
 * A shell command the user ran with `!`: the user message carrying it has its output, as the
 * model reads it, for content (see shell-context.ts); this says what ran, for the screen and the
 * one-line entry compaction keeps.
 */
export interface ShellRun {
  command: string;
  /** The directory it ran in. */
  cwd: string;
  /** How it ended, in a few words: `exit 0`, `cancelled`, `killed by SIGKILL`. */
  end: string;
  /** It exited 0. */
  ok: boolean;
}

/**
 * One entry of the append-only transcript. Nothing is ever deleted or rewritten;
 * compaction only changes what the model is shown (see model-view.ts).
 */
export interface Message {
  /** Position-independent identity, increasing in transcript order. */
  id: number;
  /** Index of the turn: a user message and everything it caused share one. */
  turn: number;
  role: Role;
  content: string;
  /** Reasoning of thinking models: shown to the user, never sent back to the model. */
  thinking?: string;
  tool_calls?: ToolCall[];
  /** For `role: 'tool'`: which tool produced this result. */
  tool_name?: string;
  /** For `role: 'tool'`: the arguments of the call, kept so summary lines stay exact. */
  tool_args?: Record<string, unknown>;
  /**
   * For `role: 'tool'`: the deterministic one-line summary of the call, computed once when it ran
   * (the tool's own template, or "was called."). Compaction carries these out-of-band.
   */
  tool_summary?: string;
  /** Base64 images (PNG, JPEG, WebP) for vision models, as /api/chat takes them. */
  images?: string[];
  /**
   * For a user message that attached files (`@path`): what the user typed, shown instead of
   * `content` (which carries the text files as sent).
   */
  typed?: string;
  /** For a user message: the files it attached, in `content` (text) or `images`. */
  attachments?: Attachment[];
  /** For `role: 'user'`: the message is the output of a `!command`, not something the user wrote. */
  shell?: ShellRun;
  /** ISO timestamp of when the message was appended. */
  at: string;
  /** The reply was cut short (Ctrl+C or a stream error); its text is what arrived. */
  interrupted?: boolean;
  /**
   * For `role: 'user'`: the user sent it although it does not fit the window ("Send it anyway?"):
   * its turn is not compacted for (it cannot fit) and the server's cut is not reported twice.
   */
  oversized?: boolean;
  /**
   * `/retry` replaced this reply (or tool call or result) with a new one: kept for the history,
   * never sent. Set in memory only; the session file records it as a separate `replaced` line.
   */
  replaced?: boolean;
}

/** A file a user message attached with `@path`, as the screen and the summarizer name it. */
export interface Attachment {
  /** The path as the user wrote it. */
  path: string;
  kind: 'text' | 'image';
  /** The file's size in bytes. */
  size: number;
  /** For text over the size cap: how many of its bytes were attached (its head). */
  attachedBytes?: number;
}

/** A message as it travels on the wire to /api/chat. */
export interface WireMessage {
  role: Role;
  content: string;
  tool_calls?: ToolCall[];
  tool_name?: string;
  images?: string[];
}

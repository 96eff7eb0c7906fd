import type { ToolPreview } from '../../tools/tool.js';
import type { DisplayItem } from './display-items.js';
import type { PullState } from './pull-tracker.js';
import type { QueuedInput } from './work-queue.js';

/** The reply being streamed: the part not yet committed to the finished conversation. */
export interface LiveReply {
  text: string;
  thinking: string;
  /** The output of a `!command`, not a reply: the status line keeps saying what runs. */
  shell?: boolean;
}

/** A question that takes the keyboard until it is answered. */
export interface Dialog {
  kind:
    | 'retry-compaction'
    | 'send-oversized'
    | 'confirm-tool'
    | 'tool-instruction'
    | 'confirm-delete'
    /** A session to resume is open in another ochat: continue in a copy (y) or read-only (n). */
    | 'held-session'
    /** The model named is not installed: download it now (y) or not (n). */
    | 'pull-model'
    /** The directory's `.mcp.json` would start programs: use it (y) or not (n). */
    | 'approve-mcp'
    /** An MCP server died mid-chat: start it again (y) or leave it stopped (n). */
    | 'restart-mcp'
    /** Several models are installed and none was named: pick one from `options`. */
    | 'pick-model'
    /** `ochat -r` on a terminal: pick one of this directory's sessions from `options`. */
    | 'pick-session';
  /** For a pick dialog: what may be picked (↑/↓, Enter); the answer is the value, '' when none was. */
  options?: readonly DialogOption[];
  question: string;
  /** The answers, as shown after the question, e.g. `y/n`. */
  choices: string;
  /** The keys that answer it, when not the usual ones of its kind (e.g. no `a` without an "always"). */
  keys?: readonly string[];
  /** What the call asked about will do, e.g. the diff of a write. */
  preview?: ToolPreview;
}

/** One entry of a pick dialog. */
export interface DialogOption {
  /** What the dialog answers when this entry is picked. */
  value: string;
  /** The entry as listed (untrusted text: model names, first messages). */
  label: string;
  /** Dimmed after the label, e.g. a model's size or a session's age. */
  detail?: string;
}

/** Everything the chat screen shows; the controller owns it, components only render it. */
export interface ChatViewState {
  /** Finished conversation, rendered once each (Ink `<Static>`). */
  items: DisplayItem[];
  live: LiveReply | undefined;
  model: string | undefined;
  numCtx: number | undefined;
  /**
   * Where an OpenAI-compatible server's window figure came from, e.g. `/props`, `--num-ctx`,
   * `learnt from refusal` (shown after the meter; none on Ollama, which takes the window ochat sends).
   */
  windowSource: string | undefined;
  /** Tokens the next request is expected to take (server counts plus an estimate). */
  used: number | undefined;
  /** What ochat is doing, e.g. "waiting for llama3.2…" or "compacting…"; undefined when idle. */
  busy: string | undefined;
  /** Speed of the last reply, e.g. "42 tokens · 38.5 tok/s". */
  lastStats: string | undefined;
  dialog: Dialog | undefined;
  /** What was typed while busy, sent in order when ochat is free (each removable until then). */
  queued: readonly QueuedInput[];
  /** Automatic compaction failed and waits for a successful `/compact` (shown in the status line). */
  autoCompactPaused: boolean;
  /** Whether the thinking of all replies is shown expanded (Ctrl+T), else one line each. */
  showThinking: boolean;
  /** The model is loading at the server (a preload, or a reply waiting for it): since when (ms). */
  loading: { model: string; since: number; label?: string } | undefined;
  /** The model spills off the GPU: the status line's mark, e.g. `60% CPU`. */
  spill: string | undefined;
  /** A download in progress (`/pull`, or a missing model the user chose to pull). */
  pull: { model: string; state: PullState } | undefined;
  exiting: boolean;
}

/** The screen before anything has happened. */
export function initialViewState(model: string | undefined): ChatViewState {
  return {
    items: [],
    live: undefined,
    model,
    numCtx: undefined,
    windowSource: undefined,
    used: undefined,
    busy: undefined,
    lastStats: undefined,
    dialog: undefined,
    queued: [],
    autoCompactPaused: false,
    showThinking: false,
    loading: undefined,
    spill: undefined,
    pull: undefined,
    exiting: false,
  };
}

/**
 * The display items of the finished conversation: what goes into Ink's `<Static>`, each rendered
 * exactly once. The controller turns transcript messages and events into these.
 */

import type { NoticeLevel } from '../../commands/command-host.js';
import type { Attachment } from '../../conversation/message.js';

/** The start-of-session header: which model, on which server, with which context window. */
export interface BannerItem {
  kind: 'banner';
  id: string;
  model: string;
  host: string;
  numCtx: number;
  /** Where an OpenAI-compatible server's window was read (`vLLM max_model_len`). */
  windowSource?: string;
}

/** A message the user sent. */
export interface UserItem {
  kind: 'user';
  id: string;
  /** What the user typed (attached files are not shown whole). */
  text: string;
  /** Files attached with `@path`, each shown as one chip line. */
  attachments?: Attachment[];
}

/** One committed markdown block of an assistant reply (a reply is usually several). */
export interface AssistantItem {
  kind: 'assistant';
  id: string;
  markdown: string;
  /** The reply was cut short (Ctrl+C or a stream error): marked `[interrupted]`. */
  interrupted?: boolean;
}

/** The reasoning of a thinking model, shown dimmed or collapsed to one line (Ctrl+T toggles all). */
export interface ThinkingItem {
  kind: 'thinking';
  id: string;
  text: string;
}

/** A tool call and its one-line outcome. */
export interface ToolItem {
  kind: 'tool';
  id: string;
  name: string;
  /** The argument that identifies the call, e.g. the path of `read_file`. */
  keyArgument: string;
  /** The tool's one-line summary of the result. */
  summary: string;
  ok: boolean;
}

/** A `!command` the user ran: the command, what it printed, how it ended. */
export interface ShellItem {
  kind: 'shell';
  id: string;
  command: string;
  /** What the model is given of its output (sanitized, capped); undefined when not kept (a resumed session). */
  output?: string;
  /** How it ended: `exit 0`, `cancelled`, … */
  end: string;
  /** It exited 0. */
  ok: boolean;
}

/** A message from ochat itself (compaction report, warnings, errors). */
export interface NoticeItem {
  kind: 'notice';
  id: string;
  level: NoticeLevel;
  text: string;
  /** Continuation rows of each line are indented this many columns more (a hanging indent). */
  hang?: number;
}

/** Anything shown in the finished part of the screen. */
export type DisplayItem =
  | BannerItem
  | UserItem
  | AssistantItem
  | ThinkingItem
  | ToolItem
  | ShellItem
  | NoticeItem;

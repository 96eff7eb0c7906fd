import { attachmentChip } from '../attachments/attachment-chip.js';
import type { ChatDelta } from '../backend/interfaces.js';
import type { DisplayItem } from '../chat/state/display-items.js';
import type { ChatViewState, Dialog } from '../chat/state/view-state.js';
import { createStreamSanitizer, sanitizeTerminalText, showControlCharacters } from '../text/sanitize.js';
import type { ToolPreview } from '../tools/tool.js';
import { NOTICE_STYLE } from './notice-style.js';
import { PlainPullPacer } from './pull-layout.js';
import { toolLine } from './tool-line.js';
import { PREVIEW_MAX_LINES, previewText } from './tool-preview-lines.js';

/** The prompt of the line-mode chat, as `ollama run` shows it. */
export const LINE_PROMPT = '>>> ';

/** How long ochat must stay idle before the prompt is printed. */
const PROMPT_SETTLE_MS = 40;

/** Nothing running, nothing asked, and something on screen (the banner, or why there is none). */
function isIdle(state: ChatViewState): boolean {
  return !state.busy && !state.live && !state.dialog && state.queued.length === 0 && state.items.length > 0;
}

/**
 * What the line-mode chat (a terminal without cursor addressing, TERM=dumb) prints: the reply as
 * it streams, every other item once, questions and the prompt — plain lines, appended only,
 * never an escape sequence (everything from the model or the server passes the sanitizer).
 */
export class LinePrinter {
  private shownItems = 0;
  private latest: ChatViewState | undefined;
  private promptTimer: NodeJS.Timeout | undefined;
  private typed: string[] = [];
  private dialog: Dialog | undefined;
  /** The preview printed last: asking again does not print it again. */
  private previewShown: ToolPreview | undefined;
  private promptShown = false;
  /** Consecutive newlines at the end of what was written (2: a blank line). */
  private newlines = 2;
  private wroteAnything = false;
  /** A reply streamed since the last message: its items are already on screen. */
  private streamed = false;
  private thinking = false;
  private pullPacer: PlainPullPacer | undefined;
  private readonly content = createStreamSanitizer();
  private readonly thoughts = createStreamSanitizer();

  constructor(private readonly write: (text: string) => void) {}

  /** A line the user typed (the terminal echoed it already): its item is not printed again. */
  typedLine(text: string): void {
    if (text.trim() !== '') this.typed.push(text.trim());
    // The terminal echoed the line and its Enter: the cursor is at the start of a new line.
    this.newlines = 1;
    this.promptShown = false;
  }

  /** A piece of the reply being streamed. */
  delta(delta: ChatDelta): void {
    if (delta.thinking) {
      if (!this.thinking) {
        this.lineStart();
        this.out('Thinking...\n');
        this.thinking = true;
      }
      this.streamed = true;
      this.out(this.thoughts.push(delta.thinking));
    }
    if (delta.content) {
      this.endThinking();
      this.streamed = true;
      this.out(this.content.push(delta.content));
    }
  }

  /** The screen state changed: print what is new in it. */
  update(state: ChatViewState): void {
    // A line printed after the prompt (an MCP server up late) buries it: it is printed again.
    if (state.items.length > this.shownItems) this.promptShown = false;
    for (const item of state.items.slice(this.shownItems)) this.item(item);
    this.shownItems = state.items.length;
    if (state.dialog !== this.dialog) {
      this.dialog = state.dialog;
      if (state.dialog) {
        this.endReply();
        // As the dialog shows it: control characters made visible, so what will run is what is read.
        // Esc does not reach a line-mode program: an empty line declines an instruction.
        const choices =
          state.dialog.kind === 'tool-instruction' ? 'an empty line declines' : state.dialog.choices;
        // What a write will do, above its question, as the chat shows it under its own.
        if (state.dialog.preview) this.preview(state.dialog.preview);
        this.out(`? ${showControlCharacters(state.dialog.question)} (${choices}) `);
        this.promptShown = false;
        this.newlines = 0;
      }
    }
    this.pullLine(state);
    this.latest = state;
    if (!isIdle(state)) {
      this.promptShown = false;
      return;
    }
    // Work often pauses for a moment between steps (a reply, then its tool call): the prompt
    // waits until ochat has really settled, or it would be printed in the middle of a turn.
    if (!this.promptShown && !this.promptTimer)
      this.promptTimer = setTimeout(() => {
        this.promptTimer = undefined;
        if (this.latest && isIdle(this.latest) && !this.promptShown) this.prompt();
      }, PROMPT_SETTLE_MS);
  }

  /** A download in progress: plain lines, a new step at once and progress at most once a second. */
  private pullLine(state: ChatViewState): void {
    if (!state.pull) {
      this.pullPacer = undefined;
      return;
    }
    this.pullPacer ??= new PlainPullPacer();
    const line = this.pullPacer.next(state.pull.model, state.pull.state, Date.now());
    if (line) this.line(line);
  }

  /** Shows the prompt (again: after a line that changed nothing on screen, or a hint). */
  prompt(): void {
    this.endReply();
    this.blankLine();
    this.out(LINE_PROMPT);
    this.newlines = 0;
    this.promptShown = true;
  }

  /** The chat ended (Ctrl+D on the prompt, /quit): the shell's prompt starts on a line of its own. */
  end(): void {
    this.lineStart();
  }

  /** Prints the open question again (the line typed did not answer it); its preview is not printed twice. */
  askAgain(state: ChatViewState): void {
    this.dialog = undefined;
    this.previewShown = state.dialog?.preview;
    this.update(state);
  }

  /** A tool call's preview (a write's first lines or diff): its title, marked lines, what was left out. */
  private preview(preview: ToolPreview): void {
    if (this.previewShown === preview) return;
    this.previewShown = preview;
    const text = previewText(preview, PREVIEW_MAX_LINES);
    this.lineStart();
    this.out(
      `${[text.title, ...text.lines.map((line) => line.text), ...(text.more ? [text.more] : [])].map((line) => `  ${line}`).join('\n')}\n`,
    );
  }

  /** The prompt of a line inside a `"""` block. */
  continuation(): void {
    this.out('... ');
    this.newlines = 0;
  }

  /** A line of ochat's own, on a line of its own (e.g. "Press Ctrl+C again to quit"). */
  hint(text: string): void {
    this.line(text);
    this.promptShown = false;
  }

  private item(item: DisplayItem): void {
    switch (item.kind) {
      case 'banner':
        this.line(
          `ochat · ${item.model} · ${item.host} · num_ctx ${item.numCtx}${item.windowSource ? ` from ${item.windowSource}` : ''}`,
        );
        return;
      case 'user': {
        // Lines typed that made no message (a `!command`, an answer) are dropped on the way.
        const typed = this.typed.indexOf(item.text.trim());
        if (typed >= 0) this.typed.splice(0, typed + 1);
        else {
          this.endReply();
          this.line(`${LINE_PROMPT}${item.text}`);
        }
        // What went with it (`@file`), which the typed line does not show.
        for (const attachment of item.attachments ?? []) this.line(attachmentChip(attachment));
        this.streamed = false;
        return;
      }
      case 'thinking':
        if (!this.streamed) this.block(`Thinking...\n${item.text}\n...done thinking.`);
        return;
      case 'assistant':
        if (!this.streamed) this.block(item.markdown);
        if (item.interrupted) {
          this.lineStart();
          this.line('[interrupted]');
        }
        return;
      case 'tool':
        this.endReply();
        this.line(showControlCharacters(toolLine(item)));
        return;
      case 'shell':
        this.endReply();
        this.line(`! ${item.command}`);
        if (item.output) this.line(item.output.replace(/\n+$/, ''));
        this.line(item.ok ? item.end : `✗ ${item.end}`);
        return;
      case 'notice':
        this.endReply();
        this.line(`${NOTICE_STYLE[item.level].symbol} ${item.text}`);
        return;
    }
  }

  /** Closes a streamed reply: the end of its thinking, its last line, a blank line. */
  private endReply(): void {
    this.endThinking();
    this.out(this.content.end());
    this.lineStart();
  }

  private endThinking(): void {
    if (!this.thinking) return;
    this.thinking = false;
    this.out(this.thoughts.end());
    this.lineStart();
    this.out('...done thinking.\n\n');
  }

  private block(text: string): void {
    this.endReply();
    this.blankLine();
    this.line(text);
  }

  private line(text: string): void {
    this.lineStart();
    this.out(`${sanitizeTerminalText(text)}\n`);
  }

  private lineStart(): void {
    if (this.newlines === 0 && this.wroteAnything) this.out('\n');
  }

  private blankLine(): void {
    if (!this.wroteAnything) return;
    this.out('\n'.repeat(Math.max(0, 2 - this.newlines)));
  }

  private out(text: string): void {
    if (text === '') return;
    this.write(text);
    this.wroteAnything = true;
    const trailing = text.length - text.replace(/\n+$/, '').length;
    this.newlines = trailing === text.length ? this.newlines + trailing : trailing;
  }
}

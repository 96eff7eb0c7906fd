import { Box, Static, Text } from 'ink';
import type { DisplayItem } from '../../chat/state/display-items.js';
import { sanitizeTerminalText } from '../../text/sanitize.js';
import { wrapToRows } from '../../text/terminal-rows.js';
import type { EditorState } from '../input/editor-state.js';
import { labelChips } from '../input/paste-chips.js';
import { PREVIEW_MAX_LINES } from '../tool-preview-lines.js';
import { ConfirmPrompt, type ConfirmPromptProps } from './confirm-prompt.js';
import { LiveReply, type LiveReplyProps } from './live-reply.js';
import { MessageItem } from './message-item.js';
import { PickList, type PickListProps, pickListRows } from './pick-list.js';
import { PromptInput } from './prompt-input.js';
import { QueuedInputs, type QueuedInputsProps, queuedRows } from './queued-inputs.js';
import { StatusLine, type StatusLineProps } from './status-line.js';
import { toolPreviewRows } from './tool-preview.js';

/** The streaming reply shown in the live area. */
export type LiveReplyState = Pick<LiveReplyProps, 'text' | 'thinking' | 'waiting'>;

/** Props of {@link ChatScreen}. */
export interface ChatScreenProps {
  /** The finished conversation, append-only: `<Static>` prints only items it has not printed yet. */
  items: readonly DisplayItem[];
  /** The reply being streamed, if any. */
  live?: LiveReplyState;
  /** What was typed while busy and waits its turn, shown dimmed under the live reply. */
  queued?: QueuedInputsProps['inputs'];
  /** The status line's content; absent once quitting (the shell's prompt follows, not a stale status). */
  status?: StatusLineProps;
  /** The prompt's editor state; the prompt is hidden when undefined. */
  input?: EditorState;
  /** Whether the prompt has the keyboard (it is dimmed otherwise, e.g. while a dialog is open). */
  inputActive?: boolean;
  /** A y/n question shown above the prompt. */
  dialog?: ConfirmPromptProps;
  /** A question answered by picking an entry (↑/↓, Enter), shown above the prompt. */
  pick?: Omit<PickListProps, 'maxRows'>;
  /** Terminal width in columns. */
  width: number;
  /** Terminal height in rows; the live area is clipped so the whole live part fits in it. */
  height: number;
  /** Thinking of finished replies shown in full (Ctrl+T). */
  showThinking?: boolean;
  /** Changes when the whole conversation must be printed again (after the screen was cleared). */
  redrawKey?: number;
  /** Lines of a download in progress (`ollama pull`'s layout), laid out for `width`. */
  progress?: readonly string[];
}

/** Rows the prompt will take: its wrapped text plus the completion list. */
function promptRows(input: EditorState | undefined, width: number): number {
  if (!input) return 0;
  const completion = input.completion ? Math.min(input.completion.matches.length, 8) + 1 : 0;
  return wrapToRows(labelChips(input.text, input.pastes), Math.max(1, width - 2)).length + completion;
}

/** Most entries a pick list shows at once. */
const PICK_MAX_ROWS = 10;

/** Lines of a dialog's preview that fit beside the prompt, the question and the status line. */
function previewLineBudget(props: Pick<ChatScreenProps, 'input' | 'dialog' | 'width' | 'height'>): number {
  const prompt = props.input ? promptRows(props.input, props.width) + 1 : 0;
  // Question + its margin, the preview's title and "more" line, the hint, and the reserve below.
  const around = 2 + 2 + (props.dialog?.hint ? 1 : 0) + 3;
  return Math.max(3, Math.min(PREVIEW_MAX_LINES, props.height - prompt - around));
}

/** Rows left for the live reply once the prompt, dialog and status line have theirs. */
export function liveRowBudget(
  props: Pick<ChatScreenProps, 'input' | 'dialog' | 'pick' | 'queued' | 'width' | 'height'>,
): number {
  const prompt = props.input ? promptRows(props.input, props.width) + 1 : 0; // + its top margin
  const preview = props.dialog?.preview;
  const dialog = props.dialog
    ? 2 + (props.dialog.hint ? 1 : 0) + (preview ? toolPreviewRows(preview, previewLineBudget(props)) : 0)
    : 0;
  // Status line, the live area's own top margin, and one spare row: Ink clears the whole screen
  // whenever its output is as tall as the terminal.
  const queued = props.queued?.length ? queuedRows(props.queued.length) + 1 : 0;
  const pick = props.pick ? pickListRows(props.pick.options.length, PICK_MAX_ROWS) + 1 : 0;
  const reserved = prompt + dialog + pick + queued + 3;
  return Math.max(3, props.height - reserved);
}

/**
 * The whole screen: the finished conversation in `<Static>` (printed once, scrolls with the
 * terminal), then the only live part: the streaming reply, the dialog, the prompt and the status.
 */
export function ChatScreen({
  items,
  live,
  queued = [],
  status,
  input,
  inputActive = true,
  dialog,
  pick,
  width,
  height,
  showThinking,
  redrawKey,
  progress,
}: ChatScreenProps) {
  return (
    <>
      <Static key={redrawKey} items={items as DisplayItem[]}>
        {(item) => <MessageItem key={item.id} item={item} width={width} showThinking={showThinking} />}
      </Static>
      <Box flexDirection="column" width={width}>
        {live && (
          <Box marginTop={1}>
            <LiveReply
              {...live}
              width={width}
              maxRows={liveRowBudget({ input, dialog, pick, queued, width, height })}
            />
          </Box>
        )}
        {queued.length > 0 && (
          <Box marginTop={1}>
            <QueuedInputs inputs={queued} />
          </Box>
        )}
        {progress && progress.length > 0 && (
          <Box marginTop={1} flexDirection="column">
            {progress.map((line, index) => (
              // Server text (layer names) is sanitized; the bar's block characters are ochat's own.
              // biome-ignore lint/suspicious/noArrayIndexKey: one line per pull step, in a fixed order.
              <Text key={index} wrap="truncate-end">
                {sanitizeTerminalText(line)}
              </Text>
            ))}
          </Box>
        )}
        {dialog && (
          <Box marginTop={1}>
            <ConfirmPrompt
              {...dialog}
              maxPreviewLines={previewLineBudget({ input, dialog, width, height })}
              width={width}
            />
          </Box>
        )}
        {pick && (
          <Box marginTop={1}>
            <PickList {...pick} maxRows={PICK_MAX_ROWS} />
          </Box>
        )}
        {input && (
          <Box marginTop={1}>
            <PromptInput state={input} isActive={inputActive && !dialog && !pick} />
          </Box>
        )}
        {status && <StatusLine {...status} />}
      </Box>
    </>
  );
}

import { Text } from 'ink';
import { formatTokens } from '../../conversation/format-tokens.js';
import { sanitizeTerminalText } from '../../text/sanitize.js';
import { Spinner } from './spinner.js';

/** Props of {@link StatusLine}. */
export interface StatusLineProps {
  /** The chat model's name. */
  model: string;
  /** The context window in tokens; the meter is hidden until it is known. */
  numCtx?: number;
  /** Where the window's figure came from, e.g. `/props` or `learnt from refusal`: dimmed after the meter. */
  windowSource?: string;
  /** Best estimate of the tokens the next request will use. */
  used?: number;
  /** What ochat is busy with, e.g. `compacting…` or `waiting for model…`; shows a spinner. */
  busy?: string;
  /** ochat waits for the user (a question is open), e.g. `waiting for your answer · y/n`: no spinner. */
  waiting?: string;
  /** A key hint such as `esc to cancel`. */
  hint?: string;
  /** Automatic compaction is paused after a failure: shown until a `/compact` succeeds. */
  autoCompactPaused?: boolean;
  /** The model spills off the GPU, e.g. `60% CPU`: replies are slower while it does. */
  spill?: string;
  /** When `busy` began (ms since the epoch): the seconds since are shown after it, from 1 s on. */
  busySince?: number;
}

/** Shown in the status line while automatic compaction is paused. */
export const AUTO_COMPACT_PAUSED = 'auto-compact paused';

/** Fill thresholds of the context meter: below the first is green, from the second on red. */
export const METER_THRESHOLDS = { warn: 0.6, danger: 0.85 } as const;

/** Colour of the context meter for a fill level. */
export function contextMeterColor(used: number, numCtx: number): 'green' | 'yellow' | 'red' {
  const fill = numCtx > 0 ? used / numCtx : 1;
  if (fill >= METER_THRESHOLDS.danger) return 'red';
  return fill >= METER_THRESHOLDS.warn ? 'yellow' : 'green';
}

/** The meter text, e.g. `1.2k/8k (15%)`. */
export function contextMeterText(used: number, numCtx: number): string {
  const percent = numCtx > 0 ? Math.round((used / numCtx) * 100) : 0;
  return `${formatTokens(used)}/${formatTokens(numCtx)} (${percent}%)`;
}

/** The bottom line: model · context meter (and where the window came from) · auto-compact paused · busy spinner (or what it waits for) · hint. */
export function StatusLine({
  model,
  numCtx,
  windowSource,
  used,
  busy,
  waiting,
  hint,
  autoCompactPaused,
  spill,
  busySince,
}: StatusLineProps) {
  return (
    <Text wrap="truncate-end">
      <Text dimColor>{sanitizeTerminalText(model)}</Text>
      {numCtx !== undefined && (
        <>
          <Text dimColor> · </Text>
          <Text color={contextMeterColor(used ?? 0, numCtx)}>{contextMeterText(used ?? 0, numCtx)}</Text>
          {windowSource && <Text dimColor> {sanitizeTerminalText(windowSource)}</Text>}
        </>
      )}
      {autoCompactPaused && (
        <>
          <Text dimColor> · </Text>
          <Text color="yellow">{AUTO_COMPACT_PAUSED}</Text>
        </>
      )}
      {spill && (
        <>
          <Text dimColor> · </Text>
          <Text color="yellow">{sanitizeTerminalText(spill)}</Text>
        </>
      )}
      {waiting ? (
        <>
          <Text dimColor> · </Text>
          <Text color="yellow">{waiting}</Text>
        </>
      ) : (
        busy && (
          <>
            <Text dimColor> · </Text>
            <Spinner label={sanitizeTerminalText(busy)} since={busySince} />
          </>
        )
      )}
      {hint && <Text dimColor> · {hint}</Text>}
    </Text>
  );
}

import { Box, Text } from 'ink';
import { memo, type ReactNode, useMemo } from 'react';
import { attachmentChip } from '../../attachments/attachment-chip.js';
import type { DisplayItem } from '../../chat/state/display-items.js';
import { formatTokens } from '../../conversation/format-tokens.js';
import { sanitizeTerminalText, showControlCharacters } from '../../text/sanitize.js';
import { headAndTail } from '../../text/shorten.js';
import { expandTabs } from '../../text/terminal-rows.js';
import { COLLAPSE_CHARS, COLLAPSE_LINES, shouldCollapse } from '../input/paste-chips.js';
import { renderMarkdown } from '../markdown/render-markdown.js';
import { MARKER_COLUMNS, NOTICE_STYLE } from '../notice-style.js';
import { shownToolSummary } from '../tool-line.js';
import { WrappedText } from './wrapped-text.js';

/** Props of {@link MessageItem}. */
export interface MessageItemProps {
  /** The finished item to show. */
  item: DisplayItem;
  /** Terminal width in columns; markdown is wrapped to it. */
  width: number;
  /** Thinking shown in full, else one line saying how long it was (Ctrl+T toggles). */
  showThinking?: boolean;
}

/** Model output and tool text are untrusted: strip control sequences, make tabs visible to layout. */
function clean(text: string): string {
  return expandTabs(sanitizeTerminalText(text));
}

/** A line with a one-column marker before wrapped text, so continuation lines stay indented. */
function Prefixed({ marker, color, children }: { marker: string; color?: string; children: ReactNode }) {
  return (
    <Box flexDirection="row">
      <Box flexShrink={0} width={MARKER_COLUMNS}>
        <Text color={color}>{marker}</Text>
      </Box>
      <Box flexGrow={1} flexShrink={1}>
        {children}
      </Box>
    </Box>
  );
}

/**
 * A block longer than twice this is shown by its two ends (plain): laying out and printing
 * megabytes took Ink minutes, and no terminal's scrollback keeps that much anyway. Ink's frame
 * costs ~2 µs a character shown: 16 k (~200 rows at 80 columns each) keeps a runaway reply's
 * cut under 0.1 s of drawing (64 k took ~0.4 s).
 */
const SHOWN_END_CHARS = 16 * 1024;

function AssistantBlock({
  markdown,
  interrupted,
  width,
}: {
  markdown: string;
  interrupted?: boolean;
  width: number;
}) {
  const ends = useMemo(() => headAndTail(markdown, SHOWN_END_CHARS, SHOWN_END_CHARS), [markdown]);
  // Sanitise the source so the only escape codes that reach the terminal are the renderer's own.
  const rendered = useMemo(
    () => (ends ? '' : renderMarkdown(clean(markdown), width)),
    [ends, markdown, width],
  );
  return (
    <Box flexDirection="column">
      {ends ? (
        <>
          {/* Wrapped by ochat's own linear wrapper: Ink's (wrap-ansi) took ~11 µs a character,
              3 s for these two ends after a runaway reply's cut. */}
          <WrappedText parts={[{ text: clean(ends.head) }]} width={width} keepIndent />
          <WrappedText
            parts={[
              {
                text: `… ${ends.omitted.toLocaleString('en-US')} characters not shown here; the conversation keeps the whole reply (/save exports it) …`,
                dimColor: true,
              },
            ]}
            width={width}
          />
          <WrappedText parts={[{ text: clean(ends.tail) }]} width={width} keepIndent />
        </>
      ) : (
        rendered !== '' && <Text>{rendered}</Text>
      )}
      {interrupted && <Text color="yellow">[interrupted]</Text>}
    </Box>
  );
}

/**
 * A sent message; a large one (a big paste, sent in full) shows its first lines and a count, as
 * the prompt showed it as a chip: thousands of lines in the scrollback help no one.
 */
function UserText({ text, width }: { text: string; width: number }) {
  if (!shouldCollapse(text)) return <WrappedText parts={[{ text: clean(text) }]} width={width} keepIndent />;
  const head = text.slice(0, COLLAPSE_CHARS).split('\n').slice(0, COLLAPSE_LINES).join('\n');
  const hiddenLines = text.split('\n').length - head.split('\n').length;
  const hidden =
    hiddenLines > 0
      ? `${hiddenLines.toLocaleString('en-US')} more lines`
      : `${(text.length - head.length).toLocaleString('en-US')} more characters`;
  return (
    <Box flexDirection="column">
      <WrappedText parts={[{ text: clean(head) }]} width={width} keepIndent />
      <Text dimColor>… {hidden} (sent in full)</Text>
    </Box>
  );
}

/** A `!command`: the command, what it printed (indented), then how it ended. */
function ShellBlock({
  command,
  output,
  end,
  ok,
  width,
}: {
  command: string;
  output?: string;
  end: string;
  ok: boolean;
  width: number;
}) {
  return (
    <Box flexDirection="column">
      <Prefixed marker="!" color="magenta">
        <WrappedText parts={[{ text: clean(command), bold: true }]} width={width - MARKER_COLUMNS} />
      </Prefixed>
      {output ? (
        <Box paddingLeft={2}>
          <WrappedText parts={[{ text: clean(output) }]} width={width - 2} keepIndent />
        </Box>
      ) : null}
      <Box paddingLeft={2}>
        <Text color={ok ? undefined : 'red'} dimColor={ok}>
          {ok ? end : `✗ ${clean(end)}`}
        </Text>
      </Box>
    </Box>
  );
}

function ItemBody({ item, width, showThinking }: MessageItemProps) {
  switch (item.kind) {
    case 'banner':
      return (
        <Text>
          <Text bold color="cyan">
            ✻ ochat
          </Text>
          <Text dimColor>
            {' '}
            · {clean(item.model)} · {clean(item.host)} · num_ctx {item.numCtx} ({formatTokens(item.numCtx)})
            {item.windowSource ? ` from ${clean(item.windowSource)}` : ''}
          </Text>
        </Text>
      );
    case 'user':
      return (
        <Prefixed marker="›" color="gray">
          <Box flexDirection="column">
            <UserText text={item.text} width={width - MARKER_COLUMNS} />
            {item.attachments?.map((attachment) => (
              <Text key={attachment.path} color="cyan" wrap="truncate-middle">
                {clean(attachmentChip(attachment))}
              </Text>
            ))}
          </Box>
        </Prefixed>
      );
    case 'assistant':
      return <AssistantBlock markdown={item.markdown} interrupted={item.interrupted} width={width} />;
    case 'thinking': {
      // The hint says what Ctrl+T will do now, so it is true for every reply on screen.
      const header = (
        <Text dimColor italic>
          ✻ Thought for {item.text.length} chars (ctrl+t to {showThinking ? 'hide' : 'show'})
        </Text>
      );
      if (!showThinking) return header;
      return (
        <Box flexDirection="column">
          {header}
          <Prefixed marker=" ">
            <WrappedText
              parts={[{ text: clean(item.text), dimColor: true, italic: true }]}
              width={width - MARKER_COLUMNS}
              keepIndent
            />
          </Prefixed>
        </Box>
      );
    }
    case 'tool':
      return (
        <Prefixed marker={item.ok ? '⚙' : '✗'} color={item.ok ? 'magenta' : 'red'}>
          <WrappedText
            parts={[
              { text: showControlCharacters(item.name), bold: true },
              { text: item.keyArgument ? ` ${showControlCharacters(item.keyArgument)}` : '' },
              {
                // A malformed call has no name to put the summary after.
                text: `${item.name || item.keyArgument ? ' — ' : ''}${showControlCharacters(shownToolSummary(item.keyArgument, item.summary))}`,
                color: item.ok ? undefined : 'red',
                dimColor: item.ok,
              },
            ]}
            width={width - MARKER_COLUMNS}
            hang={2}
          />
        </Prefixed>
      );
    case 'shell':
      return (
        <ShellBlock command={item.command} output={item.output} end={item.end} ok={item.ok} width={width} />
      );
    case 'notice': {
      const style = NOTICE_STYLE[item.level];
      return (
        <Prefixed marker={style.symbol} color={style.color}>
          <WrappedText
            parts={[{ text: clean(item.text), color: item.level === 'info' ? undefined : style.color }]}
            width={width - MARKER_COLUMNS}
            keepIndent
            hang={item.hang}
          />
        </Prefixed>
      );
    }
  }
}

/**
 * One finished item of the conversation. It lives in `<Static>` and is rendered once, so the
 * markdown of assistant blocks is rendered once per block.
 */
export const MessageItem = memo(function MessageItem({ item, width, showThinking }: MessageItemProps) {
  // Every item but the banner is separated from the one above by a blank line.
  const spaced = item.kind !== 'banner';
  return (
    <Box width={width} marginTop={spaced ? 1 : 0} flexDirection="column">
      <ItemBody item={item} width={width} showThinking={showThinking} />
    </Box>
  );
});

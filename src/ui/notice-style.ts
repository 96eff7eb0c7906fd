import type { NoticeLevel } from '../commands/command-host.js';

/** Symbol and colour of each notice level. */
export const NOTICE_STYLE: Record<NoticeLevel, { symbol: string; color: string }> = {
  info: { symbol: 'ℹ', color: 'cyan' },
  success: { symbol: '✓', color: 'green' },
  warning: { symbol: '⚠', color: 'yellow' },
  error: { symbol: '✗', color: 'red' },
};

/** Columns of the marker before an item's text (`ℹ `, `› `); its text wraps in the rest. */
export const MARKER_COLUMNS = 2;

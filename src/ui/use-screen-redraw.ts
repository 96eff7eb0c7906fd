import { useStdout } from 'ink';
import { useEffect, useRef, useState } from 'react';

/** Clears the screen and the scrollback, cursor home (what `ansi-escapes` calls clearTerminal). */
const CLEAR_TERMINAL = '\x1b[2J\x1b[3J\x1b[H';

/** A resize arrives as a burst of events while the user drags: redraw once it has settled. */
export const RESIZE_SETTLE_MS = 150;

/**
 * Redraws the whole conversation when the terminal's width changes or `mode` (how finished items
 * are shown, e.g. thinking expanded) changes; returns a key for `<Static>` that changes with each
 * redraw. `<Static>` prints each item once, so a new look needs the screen cleared and every item
 * printed again; and Ink erases its live area by counting rows, which the terminal's re-wrapping
 * of the old rows on a width change makes wrong — copies of the live area stay behind. Clearing
 * and reprinting is how gemini-cli recovers too (its `refreshStatic`).
 */
export function useScreenRedraw(mode: string): number {
  const { stdout } = useStdout();
  const [generation, setGeneration] = useState(0);
  const drawnMode = useRef(mode);
  const redraw = useRef(() => {});
  redraw.current = () => {
    stdout.write(CLEAR_TERMINAL);
    setGeneration((g) => g + 1);
  };

  useEffect(() => {
    if (drawnMode.current === mode) return;
    drawnMode.current = mode;
    redraw.current();
  }, [mode]);

  useEffect(() => {
    let columns = stdout.columns;
    let timer: NodeJS.Timeout | undefined;
    const onResize = () => {
      if (stdout.columns === columns) return;
      columns = stdout.columns;
      clearTimeout(timer);
      timer = setTimeout(() => redraw.current(), RESIZE_SETTLE_MS);
    };
    stdout.on('resize', onResize);
    return () => {
      clearTimeout(timer);
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return generation;
}

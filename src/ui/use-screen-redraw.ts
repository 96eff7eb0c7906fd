import { useStdout } from 'ink';
import { useEffect, useRef, useState } from 'react';

/**
 * Without a way to erase only ochat's own rows (component tests): the visible screen, cursor
 * home. Never the scrollback (`ESC[3J`): what the shell printed before ochat is the user's.
 */
const CLEAR_VISIBLE_SCREEN = '\x1b[H\x1b[2J';

/** A resize arrives as a burst of events while the user drags: redraw once it has settled. */
export const RESIZE_SETTLE_MS = 150;

/** What a redraw is asked for with. */
export interface ScreenRedrawOptions {
  /** A change of `mode` changes how something on screen looks (false: no finished item would change). */
  modeShows: boolean;
  /** Erases ochat's own rows, and only those (interactive.tsx: Ink's live area, then OwnRows). */
  eraseOwnOutput?: () => void;
}

/**
 * Redraws the whole conversation when the terminal's width changes, when `mode` (how finished
 * items are shown, e.g. thinking expanded) changes something on screen, or on `redraw()` (Ctrl+L);
 * returns a key for `<Static>` that changes with each redraw, and the function. `<Static>` prints
 * each item once, so a new look needs ochat's rows erased and every item printed again; and Ink
 * erases its live area by counting rows, which the terminal's re-wrapping of the old rows on a
 * width change makes wrong — copies of the live area stay behind.
 */
export function useScreenRedraw(mode: string, options: ScreenRedrawOptions): [number, () => void] {
  const { stdout } = useStdout();
  const [generation, setGeneration] = useState(0);
  const drawnMode = useRef(mode);
  const redraw = useRef(() => {});
  redraw.current = () => {
    if (options.eraseOwnOutput) options.eraseOwnOutput();
    else stdout.write(CLEAR_VISIBLE_SCREEN);
    setGeneration((g) => g + 1);
  };
  const { modeShows } = options;

  useEffect(() => {
    if (drawnMode.current === mode) return;
    drawnMode.current = mode;
    if (modeShows) redraw.current();
  }, [mode, modeShows]);

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
  const [manual] = useState(() => () => redraw.current());
  return [generation, manual];
}

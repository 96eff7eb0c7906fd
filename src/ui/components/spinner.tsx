import { Text } from 'ink';
import { useEffect, useState } from 'react';

/** Braille dots: one column wide in every terminal font. */
export const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Props of {@link Spinner}. */
export interface SpinnerProps {
  /** Text after the spinner, e.g. `thinking…`. */
  label?: string;
  /** Colour of the spinner glyph. */
  color?: string;
  /** When the wait began (ms since the epoch): `12 s` follows the label from the first second on. */
  since?: number;
}

/** The seconds waited, as the label's tail: `` (under a second), ` 12 s`. */
export function elapsedSuffix(since: number | undefined, now: number): string {
  if (since === undefined) return '';
  const seconds = Math.floor((now - since) / 1000);
  return seconds >= 1 ? ` ${seconds} s` : '';
}

/** An animated activity indicator, optionally followed by a label. */
export function Spinner({ label, color = 'cyan', since }: SpinnerProps) {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setFrame((current) => (current + 1) % SPINNER_FRAMES.length), 80);
    return () => clearInterval(timer);
  }, []);
  return (
    <Text>
      <Text color={color}>{SPINNER_FRAMES[frame]}</Text>
      {label ? ` ${label}${elapsedSuffix(since, Date.now())}` : ''}
    </Text>
  );
}

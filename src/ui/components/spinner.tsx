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
}

/** An animated activity indicator, optionally followed by a label. */
export function Spinner({ label, color = 'cyan' }: SpinnerProps) {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setFrame((current) => (current + 1) % SPINNER_FRAMES.length), 80);
    return () => clearInterval(timer);
  }, []);
  return (
    <Text>
      <Text color={color}>{SPINNER_FRAMES[frame]}</Text>
      {label ? ` ${label}` : ''}
    </Text>
  );
}

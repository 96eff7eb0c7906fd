import { Text } from 'ink';
import { Fragment } from 'react';
import { type WrapOptions, wrapToRows } from '../../text/terminal-rows.js';

/** A run of text with one style. */
export interface StyledPart {
  text: string;
  bold?: boolean;
  dimColor?: boolean;
  italic?: boolean;
  color?: string;
}

/** Props of {@link WrappedText}. */
export interface WrappedTextProps extends WrapOptions {
  /** The text (already sanitized, tabs expanded), in styled runs. */
  parts: readonly StyledPart[];
  /** Columns the rows may fill. */
  width: number;
}

/** Splits the row found at `start` of the joined text into the parts' styles. */
function styledSlices(parts: readonly StyledPart[], start: number, end: number): StyledPart[] {
  const slices: StyledPart[] = [];
  let offset = 0;
  for (const part of parts) {
    const from = Math.max(start, offset);
    const to = Math.min(end, offset + part.text.length);
    if (from < to) slices.push({ ...part, text: part.text.slice(from - offset, to - offset) });
    offset += part.text.length;
  }
  return slices;
}

/**
 * Text laid out in rows by ochat's one wrapping function ({@link wrapToRows}), never by Ink's:
 * Ink keeps the space a row was broken at, so continuation rows started with one.
 */
export function WrappedText({ parts, width, keepIndent, hang }: WrappedTextProps) {
  const full = parts.map((part) => part.text).join('');
  const rows = wrapToRows(full, width, { keepIndent, hang });
  let cursor = 0;
  const shown = rows.map((row) => {
    const body = row.trimStart();
    const indent = row.slice(0, row.length - body.length);
    if (body === '') return [{ text: row }];
    const at = full.indexOf(body, cursor);
    // Not found cannot happen (rows are the text's own runs); show the row plain if it does.
    if (at === -1) return [{ text: row }];
    // A line's own leading spaces are in `full`; a continuation's indent is not.
    const ownIndent = full.slice(Math.max(0, at - indent.length), at) === indent;
    cursor = at + body.length;
    const slices = styledSlices(parts, ownIndent ? at - indent.length : at, cursor);
    return ownIndent ? slices : [{ text: indent }, ...slices];
  });
  return (
    <Text>
      {shown.map((slices, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their position
        <Fragment key={index}>
          {index > 0 && '\n'}
          {slices.map(({ text, ...style }, at) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: slices have no identity beyond their position
            <Text key={at} {...style}>
              {text}
            </Text>
          ))}
        </Fragment>
      ))}
    </Text>
  );
}

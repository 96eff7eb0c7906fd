// Built on first use: building a segmenter loads ICU's break data (milliseconds), which a run that
// never segments text (a one-shot) should not pay when it loads a module that might.
let segmenter: Intl.Segmenter | undefined;

/** The grapheme clusters of `text` (👍🏽, é, 你 are one each), as Intl.Segmenter splits them. */
export function graphemes(text: string): Intl.Segments {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter.segment(text);
}

import { describe, expect, it } from 'vitest';
import { isOpenTripleQuote, unwrapTripleQuote } from '../../../src/ui/input/triple-quote.js';

describe('""" blocks', () => {
  it('are open from """ until a line ends with """', () => {
    expect(isOpenTripleQuote('"""')).toBe(true);
    expect(isOpenTripleQuote('  """\nsome text')).toBe(true);
    expect(isOpenTripleQuote('"""\ntext"""')).toBe(false);
    expect(isOpenTripleQuote('"""one line"""  ')).toBe(false);
    expect(isOpenTripleQuote('say """ here')).toBe(false);
    expect(isOpenTripleQuote('plain')).toBe(false);
  });

  it('send what is inside, other text as is', () => {
    expect(unwrapTripleQuote('"""\na\n  b\n"""')).toBe('a\n  b');
    expect(unwrapTripleQuote('"""x"""')).toBe('x');
    expect(unwrapTripleQuote('""""""')).toBe('');
    expect(unwrapTripleQuote('"""')).toBe('"""');
    expect(unwrapTripleQuote('a """quoted""" word')).toBe('a """quoted""" word');
  });
});

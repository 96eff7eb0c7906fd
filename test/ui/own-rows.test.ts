import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { OwnRows } from '../../src/ui/own-rows.js';

/** A terminal stream of `columns` that records nothing. */
function stream(columns: number) {
  const emitter = new EventEmitter();
  const fake = Object.assign(emitter, { columns, write: (_chunk: unknown) => true });
  const rows = new OwnRows(fake as never);
  const resize = (to: number) => {
    fake.columns = to;
    fake.emit('resize');
  };
  return { fake, rows, resize };
}

describe('OwnRows', () => {
  it('counts the rows written down to the cursor, and a frame erased by Ink', () => {
    const { fake, rows } = stream(80);
    fake.write('banner\n\nhello\n');
    expect(rows.above).toBe(3);
    // An Ink frame of two rows, then erased (eraseLines(3): the cursor row and two above) and drawn again.
    fake.write('live 1\nlive 2\n');
    expect(rows.above).toBe(5);
    fake.write('\x1b[2K\x1b[1A\x1b[2K\x1b[1A\x1b[2K\x1b[Glive 1\n');
    expect(rows.above).toBe(4);
  });

  it('counts a line longer than the terminal as the rows it wraps to, and escape sequences as nothing', () => {
    const { fake, rows } = stream(10);
    fake.write(`\x1b[1m${'x'.repeat(25)}\x1b[22m\n\x1b]52;c;aGk=\x07`);
    expect(rows.above).toBe(3);
  });

  it('reflows on a narrower terminal, as terminals do, and joins the rows again when it widens', () => {
    const { fake, rows, resize } = stream(40);
    fake.write(`${'y'.repeat(30)}\nshort\n`);
    resize(10);
    expect(rows.above).toBe(4);
    resize(40);
    expect(rows.above).toBe(2);
  });

  it('erases by going up over its rows while they are on screen; else the visible screen, never the scrollback', () => {
    const { fake, rows } = stream(80);
    fake.write('a\nb\nc\n');
    expect(rows.eraseSequence(24)).toBe('\r\x1b[3A\x1b[J');
    expect(rows.above).toBe(0);
    fake.write('row\n'.repeat(30));
    const sequence = rows.eraseSequence(24);
    expect(sequence).toBe('\x1b[H\x1b[2J');
    expect(sequence).not.toContain('\x1b[3J');
  });
});

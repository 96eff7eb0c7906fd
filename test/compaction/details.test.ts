import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  collectDetails,
  collectSliceDetails,
  detailBullet,
  detailContext,
  findDetails,
  holdsDetail,
  inPastedBlock,
  joinDetails,
  keptIn,
  MAX_DETAILS_PER_MESSAGE,
  PASTE_LINES,
} from '../../src/compaction/details.js';
import { detailsListCost, fitDetailsList, renderDetailsList } from '../../src/compaction/summary.js';
import { estimateTokens } from '../../src/conversation/token-estimate.js';
import { buildTranscript } from '../conversation/fixtures.js';
import { ELEVEN } from './eleven-details.js';

const ascii = (text: string) => estimateTokens(text, 4);

describe('findDetails', () => {
  it.each(ELEVEN)('finds %s verbatim', (_kind, sentence, detail) => {
    expect(findDetails(sentence).map((d) => d.text)).toEqual([detail]);
  });

  it('leaves plain words, ordinals, small numbers and and/or alone', () => {
    expect(findDetails('The 2 of us met on the 3rd floor, and/or later; it was fine.')).toEqual([]);
  });

  it('gives a URL its path and port, and strips sentence punctuation after it', () => {
    expect(
      findDetails('See http://db.local:5433/admin/users, then /srv/app/run.sh.').map((d) => d.text),
    ).toEqual(['http://db.local:5433/admin/users', '/srv/app/run.sh']);
  });

  it('finds numbers with a unit, numbers of three or more digits, and relative paths with an extension', () => {
    expect(
      findDetails('It took 350 ms over 12000 of them in src/db/pool.ts at 4 GB.').map((d) => d.text),
    ).toEqual(['350 ms', '12000', 'src/db/pool.ts', '4 GB']);
  });

  it('reports each text once, at its first place', () => {
    expect(findDetails('port 5433, again port 5433').map((d) => [d.text, d.start])).toEqual([['5433', 5]]);
  });

  it('returns exact, non-overlapping substrings of any text (property, fixed seed)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const found = findDetails(text);
        for (const [i, d] of found.entries()) {
          const raw = text.slice(d.start, d.end);
          expect(d.kind === 'code' ? raw.includes(d.text) : raw === d.text).toBe(true);
          if (i > 0) expect(d.start).toBeGreaterThanOrEqual(found[i - 1].end);
        }
      }),
      { seed: 3301, numRuns: 300 },
    );
  });

  it('finds a detail planted among plain words, whatever the words (property, fixed seed)', () => {
    const word = fc.stringMatching(/^[a-z]{1,9}$/);
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 12 }),
        fc.array(word, { maxLength: 12 }),
        fc.constantFrom(...ELEVEN.map(([, , detail]) => detail)),
        (before, after, detail) => {
          const planted = detail.includes(' ') ? `\`${detail}\`` : detail;
          const text = [...before, planted, ...after].join(' ');
          expect(findDetails(text).map((d) => d.text)).toEqual([detail]);
        },
      ),
      { seed: 3302, numRuns: 300 },
    );
  });
});

describe('detailContext', () => {
  it('keeps a few words of the sentence around the detail, the detail itself as …', () => {
    const text = 'Noted. The postgres on the payments host listens on port 5433. Next topic here.';
    const [port] = findDetails(text);
    expect(detailContext(text, port)).toBe('host listens on port …');
  });

  it('is empty for a detail standing alone', () => {
    const [only] = findDetails('9f3c2ab');
    expect(detailContext('9f3c2ab', only)).toBe('');
  });
});

describe('collectDetails', () => {
  it('takes what the user and the assistant wrote, not tool outputs, and the newer mention wins', () => {
    const transcript = buildTranscript([
      {
        user: 'Deploy to port 8080 please.',
        steps: [
          { tools: [{ name: 'read_file', output: 'listen 9999 in /etc/nginx/nginx.conf' }] },
          { reply: 'Noted: ORD-58213.' },
        ],
      },
      { user: 'Actually the port 8080 is wrong, use 9090 instead.', steps: [{ reply: 'OK.' }] },
    ]);
    const details = collectDetails(transcript);
    expect(details.map((d) => d.text)).toEqual(['ORD-58213', '8080', '9090']);
    expect(details[1].context).toBe('Actually the port … is wrong');
  });

  it(`marks the details of a message of more than ${PASTE_LINES} lines as pasted, not those of a shorter one`, () => {
    const log = Array.from({ length: PASTE_LINES + 1 }, (_, i) => `job ${7000 + i} done`).join('\n');
    const short = Array.from({ length: PASTE_LINES }, (_, i) => `order ORD-${5000 + i}`).join('\n');
    const details = collectDetails(buildTranscript([{ user: log, steps: [{ reply: short }] }]));
    expect(details.filter((d) => d.pasted).map((d) => d.text)).toEqual(
      Array.from({ length: PASTE_LINES + 1 }, (_, i) => String(7000 + i)),
    );
    expect(details.filter((d) => d.text.startsWith('ORD-')).every((d) => d.pasted === undefined)).toBe(true);
  });

  it(`takes at most ${MAX_DETAILS_PER_MESSAGE} details from one message`, () => {
    const paste = Array.from({ length: 100 }, (_, i) => `at line ${1000 + i}`).join('\n');
    expect(collectDetails(buildTranscript([{ user: paste, steps: [] }]))).toHaveLength(
      MAX_DETAILS_PER_MESSAGE,
    );
  });

  it("gives the texts past a message's cap apart (compaction counts them as folded), not those listed from another message", () => {
    const paste = Array.from({ length: 100 }, (_, i) => `at line ${1000 + i}`).join('\n');
    const { details, pastCap } = collectSliceDetails(
      buildTranscript([{ user: paste, steps: [{ reply: 'Line 1099 and line 1098 are the ones.' }] }]),
    );
    expect(details.map((d) => d.text)).toEqual([
      ...Array.from({ length: MAX_DETAILS_PER_MESSAGE }, (_, i) => String(1000 + i)),
      '1099',
      '1098',
    ]);
    expect(pastCap).toEqual(
      Array.from({ length: 100 - MAX_DETAILS_PER_MESSAGE - 2 }, (_, i) => String(1024 + i)),
    );
  });
});

describe('holdsDetail', () => {
  it('finds a detail as itself, not as a piece of a longer one', () => {
    expect(holdsDetail('Facts: FACT-t10 FACT-t11.', 'FACT-t1')).toBe(false);
    expect(holdsDetail('Facts: FACT-t10 FACT-t1.', 'FACT-t1')).toBe(true);
    expect(holdsDetail('port 54331', '5433')).toBe(false);
    expect(holdsDetail('ports 15433 and 5433', '5433')).toBe(true);
    expect(holdsDetail('read /etc/payments/db.conf, then', '/etc/payments/db.conf')).toBe(true);
    expect(holdsDetail('(/srv/app/index.js:418:22)', '/srv/app/index.js')).toBe(true);
  });

  it('is what keptIn checks', () => {
    expect(keptIn('FACT-t10', { text: 'FACT-t1' })).toBe(false);
  });
});

describe('inPastedBlock', () => {
  it('finds a detail in a pasted block of the user or the assistant, not in a short message or a tool output', () => {
    const log = Array.from({ length: PASTE_LINES + 1 }, (_, i) => `job ${7000 + i} done`).join('\n');
    const transcript = buildTranscript([
      {
        user: log,
        steps: [
          { tools: [{ name: 'read_file', output: log.replace('7003', '9003') }] },
          { reply: 'Job 8000.' },
        ],
      },
    ]);
    expect(inPastedBlock(transcript, '7003')).toBe(true);
    expect(inPastedBlock(transcript, '9003')).toBe(false);
    expect(inPastedBlock(transcript, '8000')).toBe(false);
    expect(inPastedBlock(transcript, '700')).toBe(false);
  });
});

describe('joinDetails', () => {
  it('keeps each text once, at its latest place, with its latest context', () => {
    const a = { text: '5433', context: 'old' };
    const b = { text: 'v2.14.3', context: 'on …' };
    expect(joinDetails([a, b], [{ text: '5433', context: 'new' }])).toEqual([
      b,
      { text: '5433', context: 'new' },
    ]);
  });
});

describe('fitDetailsList', () => {
  const details = Array.from({ length: 30 }, (_, i) => ({
    text: `ORD-${10000 + i}`,
    context: `order number ${i} is …`,
  }));

  it('keeps everything that fits, folding nothing', () => {
    const room = detailsListCost({ details }, ascii);
    expect(fitDetailsList(details, 0, room, ascii)).toEqual({ details, foldedTotal: 0 });
  });

  it('folds the oldest first, counts them, and says so in the list', () => {
    const fitted = fitDetailsList(details, 2, 100, ascii);
    expect(fitted.details).toEqual(details.slice(30 - fitted.details.length));
    expect(fitted.foldedTotal).toBe(2 + 30 - fitted.details.length);
    const list = renderDetailsList({ details: fitted.details, detailsFolded: fitted.foldedTotal });
    expect(list).toContain(`(${fitted.foldedTotal} exact details folded to fit; recall finds them)`);
    expect(list.endsWith(detailBullet(details[29]))).toBe(true);
  });

  it("folds a paste's details before what was said, oldest first, and keeps the rest in order", () => {
    const said = details.slice(0, 3);
    const pasted = details.slice(3, 13).map((d) => ({ ...d, pasted: true as const }));
    const mixed = [said[0], ...pasted.slice(0, 5), said[1], ...pasted.slice(5), said[2]];
    const room = detailsListCost({ details: [...said, pasted[9]], detailsFolded: 9 }, ascii);
    const fitted = fitDetailsList(mixed, 0, room, ascii);
    expect(fitted.details).toEqual([said[0], said[1], pasted[9], said[2]]);
    expect(fitted.foldedTotal).toBe(9);
    // With less room, the oldest of what was said goes after every pasted one.
    const less = detailsListCost({ details: said.slice(1), detailsFolded: 11 }, ascii);
    expect(fitDetailsList(mixed, 0, less, ascii).details).toEqual(said.slice(1));
  });

  it('never exceeds its room once the room holds the fully folded frame (property, fixed seed)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 400 }),
        fc.nat(50),
        (n, extra, before) => {
          const some = details.slice(0, n);
          const frame = detailsListCost({ details: [], detailsFolded: before + n || 1 }, ascii);
          const room = frame + extra;
          const fitted = fitDetailsList(some, before, room, ascii);
          expect(
            detailsListCost({ details: fitted.details, detailsFolded: fitted.foldedTotal }, ascii),
          ).toBeLessThanOrEqual(room);
          expect(fitted.foldedTotal - before + fitted.details.length).toBe(n);
        },
      ),
      { seed: 3303, numRuns: 200 },
    );
  });
});

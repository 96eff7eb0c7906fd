import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOutputCollector } from '../../src/tools/output-collector.js';

describe('createOutputCollector', () => {
  it('returns everything when under the limit', () => {
    const collector = createOutputCollector(100);
    collector.push('hello ');
    collector.push('world');
    expect(collector.text()).toBe('hello world');
  });

  it('keeps the head and the latest tail of streamed chunks and counts the rest', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 50 }), { maxLength: 60 }),
        fc.integer({ min: 2, max: 200 }),
        (chunks, max) => {
          const collector = createOutputCollector(max);
          for (const chunk of chunks) collector.push(chunk);
          const all = chunks.join('');
          const text = collector.text();
          if (all.length <= max) return text === all;
          const head = all.slice(0, Math.ceil(max / 2));
          const tail = all.slice(all.length - (max - Math.ceil(max / 2)));
          const cut = all.length - head.length - tail.length;
          return text === `${head}\n[… ${cut.toLocaleString('en-US')} characters cut …]\n${tail}`;
        },
      ),
    );
  });
});

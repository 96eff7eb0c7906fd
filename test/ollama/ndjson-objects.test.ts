import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NDJSON_LINE_CHARS, ndjsonObjects, OversizedLineError } from '../../src/ollama/ndjson-objects.js';

async function run(
  chunks: Uint8Array[],
  maxLineChars?: number,
): Promise<{ lines: string[]; dropped: string[] }> {
  const dropped: string[] = [];
  async function* source() {
    yield* chunks;
  }
  const lines: string[] = [];
  for await (const object of ndjsonObjects(source(), (line) => dropped.push(line), maxLineChars)) {
    lines.push(JSON.stringify(object));
  }
  return { lines, dropped };
}

const encode = (text: string) => new TextEncoder().encode(text);

describe('ndjsonObjects', () => {
  it('passes JSON object lines and drops malformed, non-object and blank lines', async () => {
    const body = '{"a":1}\nnot json\n42\nnull\n["x"]\n\n{"b":"é"}\n{"c":tru';
    const { lines, dropped } = await run([encode(body)]);
    expect(lines).toEqual(['{"a":1}', '{"b":"é"}']);
    expect(dropped).toEqual(['not json', '42', 'null', '["x"]', '{"c":tru']);
  });

  it('keeps a final line that has no newline', async () => {
    expect((await run([encode('{"a":1}\n{"done":true}')])).lines).toEqual(['{"a":1}', '{"done":true}']);
  });

  it('gives the same lines however the bytes are split (even inside a multi-byte character)', async () => {
    const objects = [{ t: 'héllo 🌍' }, { t: 'line\\nwith escaped newline' }, { done: true, n: 3 }];
    const bytes = encode(objects.map((o) => JSON.stringify(o)).join('\n'));
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }),
        async (cuts) => {
          const points = [0, ...cuts.sort((a, b) => a - b), bytes.length];
          const chunks = points.slice(1).map((end, i) => bytes.slice(points[i], end));
          const { lines } = await run(chunks);
          expect(lines.map((line) => JSON.parse(line))).toEqual(objects);
        },
      ),
    );
  });

  it('errors the stream when a line outgrows the cap without a newline, in one chunk or many', async () => {
    const good = encode('{"a":1}\n');
    await expect(run([good, encode('x'.repeat(11))], 10)).rejects.toBeInstanceOf(OversizedLineError);
    const pieces = Array.from({ length: 6 }, () => encode('yy'));
    await expect(run([good, ...pieces], 10)).rejects.toThrow('a stream line exceeded 10 characters');
    // A complete line over the cap is refused too; lines up to it pass.
    await expect(run([encode(`{"b":"${'z'.repeat(20)}"}\n`)], 10)).rejects.toBeInstanceOf(OversizedLineError);
    expect((await run([encode('{"c":12345}\n')], 11)).lines).toEqual(['{"c":12345}']);
  });

  it('caps lines at 16 MB by default: a 17 MB line sent in 64 KB pieces is refused', async () => {
    expect(MAX_NDJSON_LINE_CHARS).toBe(16 * 1024 * 1024);
    const piece = encode('a'.repeat(64 * 1024));
    const pieces = Array.from({ length: 17 * 16 }, () => piece);
    await expect(run([encode('{"model":"x","message":{"content":"'), ...pieces])).rejects.toBeInstanceOf(
      OversizedLineError,
    );
  });
});

import { describe, expect, test } from 'vitest';
import { GgmlType, GgufType, type GgufValue, readGgufKeys, writeGguf } from './gguf.js';
import { tinyModelGguf } from './tiny-model.js';

const header = (bytes: Uint8Array) => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    magic: new TextDecoder().decode(bytes.subarray(0, 4)),
    version: view.getUint32(4, true),
    tensors: Number(view.getBigUint64(8, true)),
    keys: Number(view.getBigUint64(16, true)),
  };
};

/** A vocab-only GGUF of three tokens, shaped like llama.cpp's `models/ggml-vocab-*.gguf`. */
function vocabFile(): Uint8Array {
  return writeGguf(
    new Map<string, GgufValue>([
      ['general.architecture', { type: GgufType.STRING, value: 'phi3' }],
      ['tokenizer.ggml.model', { type: GgufType.STRING, value: 'llama' }],
      [
        'tokenizer.ggml.tokens',
        { type: GgufType.ARRAY, itemType: GgufType.STRING, value: ['<unk>', '<s>', '▁é'] },
      ],
      ['tokenizer.ggml.scores', { type: GgufType.ARRAY, itemType: GgufType.FLOAT32, value: [0, 0, -1.5] }],
      ['tokenizer.ggml.token_type', { type: GgufType.ARRAY, itemType: GgufType.INT32, value: [2, 3, 1] }],
      ['tokenizer.ggml.add_bos_token', { type: GgufType.BOOL, value: true }],
      ['tokenizer.ggml.bos_token_id', { type: GgufType.UINT32, value: 1 }],
    ]),
    [],
  );
}

describe('the GGUF writer', () => {
  test('writes every value type so that reading it back gives the same keys', () => {
    const keys = new Map<string, GgufValue>([
      ['u8', { type: GgufType.UINT8, value: 200 }],
      ['i8', { type: GgufType.INT8, value: -5 }],
      ['u16', { type: GgufType.UINT16, value: 60_000 }],
      ['i16', { type: GgufType.INT16, value: -30_000 }],
      ['u32', { type: GgufType.UINT32, value: 4_000_000_000 }],
      ['i32', { type: GgufType.INT32, value: -2_000_000_000 }],
      ['f32', { type: GgufType.FLOAT32, value: 0.5 }],
      ['bool', { type: GgufType.BOOL, value: false }],
      ['string', { type: GgufType.STRING, value: 'héllo {{ bos_token }}' }],
      ['u64', { type: GgufType.UINT64, value: 2n ** 40n }],
      ['i64', { type: GgufType.INT64, value: -(2n ** 40n) }],
      ['f64', { type: GgufType.FLOAT64, value: 1 / 3 }],
      ['array', { type: GgufType.ARRAY, itemType: GgufType.STRING, value: ['a', '', 'ü'] }],
    ]);
    const bytes = writeGguf(keys, []);
    expect(header(bytes)).toEqual({ magic: 'GGUF', version: 3, tensors: 0, keys: keys.size });
    expect(readGgufKeys(bytes)).toEqual(keys);
  });

  test('pads the tensor data to 32 bytes and refuses data that does not match the shape', () => {
    const tensor = { name: 't', shape: [3], type: GgmlType.F32, data: new Uint8Array(12) };
    expect(writeGguf(new Map(), [tensor]).length % 32).toBe(0);
    expect(() => writeGguf(new Map(), [{ ...tensor, shape: [4] }])).toThrow(/t holds 12 bytes/);
  });

  test('reading refuses what is not GGUF', () => {
    expect(() => readGgufKeys(new TextEncoder().encode('GGML0000000000000000000000'))).toThrow(/bad magic/);
  });
});

describe('the tiny model', () => {
  test("is a 2-layer llama carrying the vocab file's tokenizer keys, the same bytes for the same seed", () => {
    const vocab = vocabFile();
    const model = tinyModelGguf(vocab, 7);
    const keys = readGgufKeys(model);
    expect(keys.get('general.architecture')?.value).toBe('llama');
    expect(keys.get('llama.block_count')?.value).toBe(2);
    expect(keys.get('llama.embedding_length')?.value).toBe(64);
    expect(keys.get('llama.vocab_size')?.value).toBe(3);
    for (const [key, value] of readGgufKeys(vocab)) {
      if (key.startsWith('tokenizer.')) expect(keys.get(key)).toEqual(value);
    }
    // token_embd, output_norm and 9 tensors per layer.
    expect(header(model).tensors).toBe(2 + 2 * 9);
    // Compared as buffers: an element-wise deep equality of 160 kB takes seconds.
    expect(Buffer.from(tinyModelGguf(vocab, 7)).equals(model)).toBe(true);
    expect(Buffer.from(tinyModelGguf(vocab, 8)).equals(model)).toBe(false);
  });
});

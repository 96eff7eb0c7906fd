/**
 * A tiny llama model for the real llama.cpp server in tests: random weights (so its words are
 * gibberish) but a real tokenizer, copied from one of llama.cpp's vocab-only GGUFs, so every count
 * the server reports is a real tokenization. 2 layers, 64 wide, 4 heads: ~4 MB, answers in well
 * under a second on a CPU. Deterministic: the same seed writes the same bytes.
 */
import { GgmlType, type GgufTensor, GgufType, type GgufValue, readGgufKeys, writeGguf } from './gguf.js';

const N_EMBD = 64;
const N_HEAD = 4;
const N_FF = 128;
const N_LAYER = 2;
/** The trained window the model claims; the server's `-c` sets the window it really has. */
const CONTEXT_LENGTH = 32768;

/** mulberry32: a small seeded PRNG, so the model is the same on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** IEEE half-precision bits of `value` (round to nearest; the small values used here never overflow). */
const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);
function toHalf(value: number): number {
  f32[0] = value;
  const bits = f32Bits[0];
  const sign = (bits >>> 16) & 0x8000;
  const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
  const mantissa = bits & 0x7fffff;
  if (exponent <= 0) return sign; // below half's normal range: zero is close enough for random weights
  if (exponent >= 0x1f) return sign | 0x7c00;
  const half = sign | (exponent << 10) | (mantissa >>> 13);
  return mantissa & 0x1000 ? half + 1 : half;
}

function f16Tensor(name: string, shape: number[], next: () => number, scale: number): GgufTensor {
  const count = shape.reduce((a, b) => a * b, 1);
  const data = new Uint8Array(count * 2);
  const view = new DataView(data.buffer);
  for (let i = 0; i < count; i++) view.setUint16(i * 2, toHalf((next() * 2 - 1) * scale), true);
  return { name, shape, type: GgmlType.F16, data };
}

/** A norm's weights: all ones (F32, as llama.cpp's converters write norms). */
function onesTensor(name: string, length: number): GgufTensor {
  const data = new Uint8Array(length * 4);
  new Float32Array(data.buffer).fill(1);
  return { name, shape: [length], type: GgmlType.F32, data };
}

const u32 = (value: number): GgufValue => ({ type: GgufType.UINT32, value });

/**
 * The tiny model's GGUF bytes: the `tokenizer.*` keys of the vocab-only GGUF `vocab`, a llama
 * architecture around them, and random weights from `seed`. The output projection is left out:
 * llama.cpp then ties it to the token embedding.
 */
export function tinyModelGguf(vocab: Uint8Array, seed = 1): Uint8Array {
  const vocabKeys = readGgufKeys(vocab);
  const tokens = vocabKeys.get('tokenizer.ggml.tokens')?.value;
  if (!Array.isArray(tokens)) throw new Error('the vocab GGUF has no tokenizer.ggml.tokens');
  const nVocab = tokens.length;

  const keys = new Map<string, GgufValue>([
    ['general.architecture', { type: GgufType.STRING, value: 'llama' }],
    ['general.name', { type: GgufType.STRING, value: 'ochat-tiny' }],
    ['general.file_type', u32(1)], // mostly F16
    ['llama.vocab_size', u32(nVocab)],
    ['llama.context_length', u32(CONTEXT_LENGTH)],
    ['llama.embedding_length', u32(N_EMBD)],
    ['llama.block_count', u32(N_LAYER)],
    ['llama.feed_forward_length', u32(N_FF)],
    ['llama.attention.head_count', u32(N_HEAD)],
    ['llama.attention.head_count_kv', u32(N_HEAD)],
    ['llama.rope.dimension_count', u32(N_EMBD / N_HEAD)],
    ['llama.attention.layer_norm_rms_epsilon', { type: GgufType.FLOAT32, value: 1e-5 }],
  ]);
  for (const [key, value] of vocabKeys) if (key.startsWith('tokenizer.')) keys.set(key, value);

  const next = random(seed);
  const tensors: GgufTensor[] = [f16Tensor('token_embd.weight', [N_EMBD, nVocab], next, 0.5)];
  for (let layer = 0; layer < N_LAYER; layer++) {
    const blk = `blk.${layer}`;
    tensors.push(
      onesTensor(`${blk}.attn_norm.weight`, N_EMBD),
      f16Tensor(`${blk}.attn_q.weight`, [N_EMBD, N_EMBD], next, 0.2),
      f16Tensor(`${blk}.attn_k.weight`, [N_EMBD, N_EMBD], next, 0.2),
      f16Tensor(`${blk}.attn_v.weight`, [N_EMBD, N_EMBD], next, 0.2),
      f16Tensor(`${blk}.attn_output.weight`, [N_EMBD, N_EMBD], next, 0.2),
      onesTensor(`${blk}.ffn_norm.weight`, N_EMBD),
      f16Tensor(`${blk}.ffn_gate.weight`, [N_EMBD, N_FF], next, 0.2),
      f16Tensor(`${blk}.ffn_up.weight`, [N_EMBD, N_FF], next, 0.2),
      f16Tensor(`${blk}.ffn_down.weight`, [N_FF, N_EMBD], next, 0.2),
    );
  }
  tensors.push(onesTensor('output_norm.weight', N_EMBD));
  return writeGguf(keys, tensors);
}

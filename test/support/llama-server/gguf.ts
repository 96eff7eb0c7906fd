/**
 * A small GGUF (version 3) reader and writer, enough to copy a vocab-only file's tokenizer keys
 * into a tiny model of our own. The format (llama.cpp `ggml/include/gguf.h`): magic `GGUF`, version,
 * tensor count, key/value count, the key/values, the tensor infos, padding to the alignment, then
 * each tensor's data at an aligned offset. All little-endian.
 */

/** GGUF value types (`enum gguf_type`). */
export const GgufType = {
  UINT8: 0,
  INT8: 1,
  UINT16: 2,
  INT16: 3,
  UINT32: 4,
  INT32: 5,
  FLOAT32: 6,
  BOOL: 7,
  STRING: 8,
  ARRAY: 9,
  UINT64: 10,
  INT64: 11,
  FLOAT64: 12,
} as const;

/** ggml tensor types used here (`enum ggml_type`). */
export const GgmlType = { F32: 0, F16: 1 } as const;

type Scalar = number | bigint | boolean | string;

/**
 * One key's value with its GGUF type, kept as read so that writing it back is exact; an array
 * (`type` ARRAY) has its items' type in `itemType` and its items in `value`.
 */
export interface GgufValue {
  type: number;
  itemType?: number;
  value: Scalar | Scalar[];
}

/** A tensor to write: its shape in ggml order (innermost dimension first) and its raw data. */
export interface GgufTensor {
  name: string;
  shape: number[];
  type: number;
  data: Uint8Array;
}

const MAGIC = 0x46554747; // "GGUF" read as a little-endian u32
const VERSION = 3;
const ALIGNMENT = 32;

/** Reads the key/values of a GGUF file (tensors are not needed by anything here). */
export function readGgufKeys(bytes: Uint8Array): Map<string, GgufValue> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const u32 = () => {
    const v = view.getUint32(at, true);
    at += 4;
    return v;
  };
  const u64 = () => {
    const v = view.getBigUint64(at, true);
    at += 8;
    return v;
  };
  const string = () => {
    const length = Number(u64());
    const text = new TextDecoder().decode(bytes.subarray(at, at + length));
    at += length;
    return text;
  };
  const scalar = (type: number): Scalar => {
    switch (type) {
      case GgufType.UINT8:
        return view.getUint8(at++);
      case GgufType.INT8:
        return view.getInt8(at++);
      case GgufType.UINT16:
        at += 2;
        return view.getUint16(at - 2, true);
      case GgufType.INT16:
        at += 2;
        return view.getInt16(at - 2, true);
      case GgufType.UINT32:
        return u32();
      case GgufType.INT32:
        at += 4;
        return view.getInt32(at - 4, true);
      case GgufType.FLOAT32:
        at += 4;
        return view.getFloat32(at - 4, true);
      case GgufType.BOOL:
        return view.getUint8(at++) !== 0;
      case GgufType.STRING:
        return string();
      case GgufType.UINT64:
        return u64();
      case GgufType.INT64:
        at += 8;
        return view.getBigInt64(at - 8, true);
      case GgufType.FLOAT64:
        at += 8;
        return view.getFloat64(at - 8, true);
      default:
        throw new Error(`GGUF: unknown value type ${type} at byte ${at}`);
    }
  };

  if (u32() !== MAGIC) throw new Error('GGUF: not a GGUF file (bad magic)');
  const version = u32();
  if (version !== 2 && version !== 3) throw new Error(`GGUF: unsupported version ${version}`);
  u64(); // tensor count
  const keyCount = Number(u64());
  const keys = new Map<string, GgufValue>();
  for (let i = 0; i < keyCount; i++) {
    const key = string();
    const type = u32();
    if (type === GgufType.ARRAY) {
      const itemType = u32();
      const count = Number(u64());
      const value: Scalar[] = new Array(count);
      for (let j = 0; j < count; j++) value[j] = scalar(itemType);
      keys.set(key, { type, itemType, value });
    } else {
      keys.set(key, { type, value: scalar(type) });
    }
  }
  return keys;
}

/** A growable little-endian byte writer. */
class ByteWriter {
  private buffer = new Uint8Array(1 << 20);
  private view = new DataView(this.buffer.buffer);
  length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
    this.view = new DataView(next.buffer);
  }

  bytes(data: Uint8Array): void {
    this.reserve(data.length);
    this.buffer.set(data, this.length);
    this.length += data.length;
  }

  u8(v: number): void {
    this.reserve(1);
    this.view.setUint8(this.length++, v);
  }

  number(type: number, v: number | bigint): void {
    const sizes: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 10: 8, 11: 8, 12: 8 };
    const size = sizes[type];
    this.reserve(size);
    const at = this.length;
    switch (type) {
      case GgufType.UINT8:
        this.view.setUint8(at, Number(v));
        break;
      case GgufType.INT8:
        this.view.setInt8(at, Number(v));
        break;
      case GgufType.UINT16:
        this.view.setUint16(at, Number(v), true);
        break;
      case GgufType.INT16:
        this.view.setInt16(at, Number(v), true);
        break;
      case GgufType.UINT32:
        this.view.setUint32(at, Number(v), true);
        break;
      case GgufType.INT32:
        this.view.setInt32(at, Number(v), true);
        break;
      case GgufType.FLOAT32:
        this.view.setFloat32(at, Number(v), true);
        break;
      case GgufType.UINT64:
        this.view.setBigUint64(at, BigInt(v), true);
        break;
      case GgufType.INT64:
        this.view.setBigInt64(at, BigInt(v), true);
        break;
      case GgufType.FLOAT64:
        this.view.setFloat64(at, Number(v), true);
        break;
      default:
        throw new Error(`GGUF: ${type} is not a number type`);
    }
    this.length += size;
  }

  string(text: string): void {
    const encoded = new TextEncoder().encode(text);
    this.number(GgufType.UINT64, BigInt(encoded.length));
    this.bytes(encoded);
  }

  scalar(type: number, v: Scalar): void {
    if (type === GgufType.STRING) this.string(String(v));
    else if (type === GgufType.BOOL) this.u8(v ? 1 : 0);
    else this.number(type, v as number | bigint);
  }

  padTo(alignment: number): void {
    while (this.length % alignment !== 0) this.u8(0);
  }

  result(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}

/** Bytes per element of the tensor types written here. */
function elementSize(type: number): number {
  if (type === GgmlType.F32) return 4;
  if (type === GgmlType.F16) return 2;
  throw new Error(`GGUF: tensor type ${type} is not written here`);
}

/** Writes a GGUF v3 file of these key/values and tensors (32-byte alignment, the default). */
export function writeGguf(keys: Map<string, GgufValue>, tensors: GgufTensor[]): Uint8Array {
  const out = new ByteWriter();
  out.number(GgufType.UINT32, MAGIC);
  out.number(GgufType.UINT32, VERSION);
  out.number(GgufType.UINT64, BigInt(tensors.length));
  out.number(GgufType.UINT64, BigInt(keys.size));
  for (const [key, entry] of keys) {
    out.string(key);
    out.number(GgufType.UINT32, entry.type);
    if (entry.type === GgufType.ARRAY) {
      const items = entry.value as Scalar[];
      const itemType = entry.itemType ?? GgufType.UINT8;
      out.number(GgufType.UINT32, itemType);
      out.number(GgufType.UINT64, BigInt(items.length));
      for (const item of items) out.scalar(itemType, item);
    } else {
      out.scalar(entry.type, entry.value as Scalar);
    }
  }
  let offset = 0;
  for (const tensor of tensors) {
    const elements = tensor.shape.reduce((a, b) => a * b, 1);
    if (tensor.data.length !== elements * elementSize(tensor.type)) {
      throw new Error(`GGUF: ${tensor.name} holds ${tensor.data.length} bytes, its shape needs more or less`);
    }
    out.string(tensor.name);
    out.number(GgufType.UINT32, tensor.shape.length);
    for (const dim of tensor.shape) out.number(GgufType.UINT64, BigInt(dim));
    out.number(GgufType.UINT32, tensor.type);
    out.number(GgufType.UINT64, BigInt(offset));
    offset += Math.ceil(tensor.data.length / ALIGNMENT) * ALIGNMENT;
  }
  out.padTo(ALIGNMENT);
  for (const tensor of tensors) {
    out.bytes(tensor.data);
    out.padTo(ALIGNMENT);
  }
  return out.result();
}

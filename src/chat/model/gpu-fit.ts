/**
 * What a model's window costs in memory, from `/api/ps`: where it runs (`ollama ps`'s processor
 * column), and the largest window that would fit the GPU. Pure: the chat feeds it what the
 * server measured.
 */

/** One measurement: the model loaded with `numCtx` took `size` bytes, `sizeVram` of them on the GPU. */
export interface MemoryPoint {
  numCtx: number;
  size: number;
  sizeVram: number;
}

/** Percent of the model on the CPU, as `ollama ps` rounds it. */
export function cpuPercent(size: number, sizeVram: number): number {
  if (size <= 0) return 0;
  return Math.round(((size - Math.min(sizeVram, size)) / size) * 100);
}

/** `ollama ps`'s processor column: `100% GPU`, `100% CPU`, or `60%/40% CPU/GPU`. */
export function processorSplit(size: number, sizeVram: number): string {
  if (sizeVram >= size) return '100% GPU';
  if (sizeVram <= 0) return '100% CPU';
  const cpu = cpuPercent(size, sizeVram);
  return `${cpu}%/${100 - cpu}% CPU/GPU`;
}

/** The model does not all fit on the GPU: part of every reply is computed by the CPU. */
export function spills(point: MemoryPoint): boolean {
  return point.sizeVram < point.size;
}

/** Windows smaller than this are not worth suggesting: the chat would compact all the time. */
const SMALLEST_SUGGESTION = 2048;

/**
 * The largest power-of-two `num_ctx` below the spilling one whose estimated size fits the GPU.
 * The size is linear in the window (weights + KV cache per token), so two measurements at
 * different windows give the line; the GPU's room is what it held when the model spilled.
 * Undefined when there are not two such points, or when nothing from 2048 up fits.
 */
export function suggestNumCtx(points: readonly MemoryPoint[], spilling: MemoryPoint): number | undefined {
  if (!spills(spilling) || spilling.sizeVram <= 0) return undefined;
  const other = [...points].reverse().find((point) => point.numCtx !== spilling.numCtx);
  if (!other) return undefined;
  const perToken = (spilling.size - other.size) / (spilling.numCtx - other.numCtx);
  if (!(perToken > 0)) return undefined;
  const weights = spilling.size - perToken * spilling.numCtx;
  const room = spilling.sizeVram;
  let best: number | undefined;
  for (let numCtx = SMALLEST_SUGGESTION; numCtx < spilling.numCtx; numCtx *= 2) {
    if (weights + perToken * numCtx <= room) best = numCtx;
  }
  return best;
}

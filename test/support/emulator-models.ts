import { createHash } from 'node:crypto';
import type { EmulatorModel } from './emulator-types.js';

/** A model with every default filled in. */
export interface ResolvedModel {
  name: string;
  family: string;
  trainedContext: number;
  numCtxParam?: number;
  capabilities: string[];
  /** Modelfile `SYSTEM`, if the model has one. */
  system?: string;
  license?: string;
  parameters: Record<string, number | string>;
  digest: string;
  /** Bytes on disk, made up but stable; also the weights' share of memory when loaded. */
  size: number;
  /** Memory each token of the window adds (the KV cache). */
  kvBytesPerToken: number;
}

/** The model used when an emulator is started without a list. */
export const DEFAULT_MODELS: EmulatorModel[] = [{ name: 'llama3.2:latest' }];

/** Fixed so /api/tags is deterministic. */
export const MODIFIED_AT = '2025-01-01T00:00:00.000000000Z';

/** 'qwen3' → 'qwen3:latest'; names are case-insensitive as in Ollama. */
export function canonicalModelName(name: string): string {
  const lower = name.trim().toLowerCase();
  const lastSegment = lower.slice(lower.lastIndexOf('/') + 1);
  return lastSegment.includes(':') ? lower : `${lower}:latest`;
}

/** Fills in the defaults of an EmulatorModel. */
export function resolveModel(model: EmulatorModel): ResolvedModel {
  const name = canonicalModelName(model.name);
  return {
    name,
    family: model.family ?? 'llama',
    trainedContext: model.trainedContext ?? 131072,
    numCtxParam: model.numCtxParam,
    capabilities: model.capabilities ?? ['completion'],
    system: model.system,
    license: model.license,
    parameters: model.parameters ?? {},
    digest: createHash('sha256').update(name).digest('hex'),
    size: model.size ?? 2_019_393_189,
    kvBytesPerToken: model.kvBytesPerToken ?? 1024,
  };
}

/** `/api/tags` and `/api/ps` `details`. */
export function modelDetails(model: ResolvedModel) {
  return {
    parent_model: '',
    format: 'gguf',
    family: model.family,
    families: [model.family],
    parameter_size: '3.2B',
    quantization_level: 'Q4_K_M',
  };
}

/** One entry of `/api/tags`. */
export function tagsEntry(model: ResolvedModel) {
  return {
    name: model.name,
    model: model.name,
    modified_at: MODIFIED_AT,
    size: model.size,
    digest: model.digest,
    details: modelDetails(model),
  };
}

/** Memory a model takes loaded with a window of `contextLength`: weights plus the KV cache. */
export function loadedSize(model: ResolvedModel, contextLength: number): number {
  return model.size + contextLength * model.kvBytesPerToken;
}

/**
 * One entry of `/api/ps` for a model loaded with a window of `contextLength`; what does not fit
 * in `gpuMemory` bytes runs on the CPU (`size_vram` < `size`).
 */
export function psEntry(model: ResolvedModel, contextLength: number, expiresAt: Date, gpuMemory = Infinity) {
  const size = loadedSize(model, contextLength);
  return {
    name: model.name,
    model: model.name,
    size,
    size_vram: Math.max(0, Math.min(size, gpuMemory)),
    digest: model.digest,
    details: modelDetails(model),
    expires_at: expiresAt.toISOString(),
    context_length: contextLength,
  };
}

import type { ChatReply, ChatRequest } from './interfaces.js';

/** One line of a pull's progress, as the server streams it. */
export interface PullProgress {
  /** `pulling manifest`, `pulling <12 hex>`, `verifying sha256 digest`, …, `success`. */
  status: string;
  /** The layer this line is about (`sha256:…`), on the `pulling <hex>` lines. */
  digest?: string;
  /** The layer's size in bytes. */
  total?: number;
  /** Bytes of the layer on disk so far. */
  completed?: number;
}

/** A model in the server's memory, as `/api/ps` lists it. */
export interface RunningModel {
  name: string;
  /** Bytes the loaded model takes: weights plus the KV cache of its window. */
  size: number;
  /** The part of `size` on the GPU; less than `size` means the rest runs on the CPU. */
  sizeVram: number;
  /** The window it was loaded with (`num_ctx` in force at the server). */
  contextLength?: number;
  /** When the server unloads it unless it is used again (ISO time). */
  expiresAt?: string;
}

/** What a preload asks for: the model with the options and keep_alive its chats will send. */
export type LoadRequest = Omit<ChatRequest, 'messages' | 'tools' | 'think' | 'truncate'>;

/**
 * A local model's life at the server: downloading it, loading it before it is needed, freeing
 * it, and seeing what is loaded and where (GPU or CPU).
 */
export interface ModelLifecycle {
  /** Downloads a model, reporting each progress line; rejects (kind `pull-failed`) on an error line. */
  pullModel(model: string, onProgress: (progress: PullProgress) => void, signal?: AbortSignal): Promise<void>;
  /** The models loaded now (`/api/ps`). */
  runningModels(signal?: AbortSignal): Promise<RunningModel[]>;
  /** Loads the model with no messages (`done_reason: "load"`); its `load_duration` is in the metrics. */
  loadModel(request: LoadRequest, signal?: AbortSignal): Promise<ChatReply>;
  /** Frees the model now (no messages, `keep_alive: 0`, as `ollama stop` does). */
  unloadModel(model: string, signal?: AbortSignal): Promise<void>;
}

import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { isClosed, sendError, sendJson, waitUnlessClosed } from './emulator-http.js';
import { canonicalModelName } from './emulator-models.js';
import type { EmulatorState } from './emulator-state.js';
import type { EmulatorRegistryModel } from './emulator-types.js';

/** Layer sizes of a registry model that names none: weights, template, license, params (as llama3.2). */
export const DEFAULT_LAYERS = [2_019_377_376, 1_429, 7_711, 6_016, 96, 561];

/** How often a layer's progress is reported while it downloads (Ollama: several times a second). */
const PROGRESS_INTERVAL_MS = 50;

/** Ollama's answer for a name the registry does not have. */
export const PULL_NOT_FOUND = 'pull model manifest: file does not exist';

/** The sha256 digest of layer `index` of `name`, `sha256:<64 hex>`, stable across runs. */
export function layerDigest(name: string, index: number): string {
  return `sha256:${createHash('sha256').update(`${name}#${index}`).digest('hex')}`;
}

/**
 * POST /api/pull as Ollama's PullHandler streams it: `pulling manifest`, one `pulling <12 hex>`
 * line per layer starting at completed 0 and growing at the registry's pace, `verifying sha256
 * digest`, `writing manifest`, `removing unused layers`, `success`. A client that goes away stops
 * it; the bytes so far stay as a partial blob that the next pull resumes from, as Ollama does.
 */
export async function handlePull(state: EmulatorState, body: unknown, res: ServerResponse): Promise<void> {
  if (body === undefined) return sendError(res, 400, 'missing request body');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return sendError(res, 400, 'invalid character in request body');
  }
  const request = body as Record<string, unknown>;
  for (const field of ['model', 'name'] as const) {
    const value = request[field];
    if (value !== undefined && value !== null && typeof value !== 'string') {
      return sendError(res, 400, goTypeError(value, field, 'string'));
    }
  }
  for (const field of ['stream', 'insecure'] as const) {
    const value = request[field];
    if (value !== undefined && value !== null && typeof value !== 'boolean') {
      return sendError(res, 400, goTypeError(value, field, 'bool'));
    }
  }
  const asked = (request.model || request.name) as string | undefined;
  if (!asked || asked.trim() === '') return sendError(res, 400, 'model is required');
  const streamed = request.stream !== false;
  const wanted = state.registry.get(canonicalModelName(asked));

  if (!streamed) {
    // stream:false: the whole pull happens before the one answer.
    if (!wanted) return sendError(res, 500, PULL_NOT_FOUND);
    const ok = await download(state, wanted, res, () => {});
    if (ok === 'done') sendJson(res, 200, { status: 'success' });
    else if (ok !== 'closed') sendError(res, 500, ok.error);
    return;
  }

  res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
  const line = (value: unknown) => {
    if (!isClosed(res)) res.write(`${JSON.stringify(value)}\n`);
  };
  line({ status: 'pulling manifest' });
  if (!wanted) {
    res.end(`${JSON.stringify({ error: PULL_NOT_FOUND })}\n`);
    return;
  }
  const outcome = await download(state, wanted, res, line);
  if (outcome === 'closed') {
    state.pullsAborted += 1;
    return;
  }
  if (outcome !== 'done') {
    res.end(`${JSON.stringify({ error: outcome.error })}\n`);
    return;
  }
  for (const status of ['verifying sha256 digest', 'writing manifest', 'removing unused layers']) {
    line({ status });
  }
  res.end(`${JSON.stringify({ status: 'success' })}\n`);
}

/** Downloads every layer at the registry's pace, reporting progress; installs the model at the end. */
async function download(
  state: EmulatorState,
  wanted: EmulatorRegistryModel,
  res: ServerResponse,
  line: (value: unknown) => void,
): Promise<'done' | 'closed' | { error: string }> {
  const name = canonicalModelName(wanted.name);
  const layers = wanted.layers ?? DEFAULT_LAYERS;
  const bytesPerSecond = state.pullBytesPerSecond;
  let downloaded = 0;
  for (const [index, total] of layers.entries()) {
    const digest = layerDigest(name, index);
    const status = `pulling ${digest.slice('sha256:'.length, 'sha256:'.length + 12)}`;
    const report = (completed: number) => line({ status, digest, total, completed });
    // Like Ollama's download: the layer is announced at 0, then what is already on disk counts at once.
    report(0);
    let completed = Math.min(total, state.blobs.get(digest) ?? 0);
    if (completed > 0) report(completed);
    while (completed < total) {
      const step = Number.isFinite(bytesPerSecond)
        ? Math.max(1, Math.round((bytesPerSecond * PROGRESS_INTERVAL_MS) / 1000))
        : total;
      // A scripted failure (disk full, network) once this many bytes of the pull have arrived.
      if (wanted.pullError && downloaded >= wanted.pullError.afterBytes)
        return { error: wanted.pullError.error };
      const wait = Number.isFinite(bytesPerSecond) ? PROGRESS_INTERVAL_MS : 0;
      if (!(await waitUnlessClosed(res, wait))) {
        state.blobs.set(digest, completed);
        return 'closed';
      }
      const next = Math.min(total, completed + step);
      downloaded += next - completed;
      completed = next;
      state.blobs.set(digest, completed);
      report(completed);
    }
  }
  if (isClosed(res)) return 'closed';
  state.install(wanted);
  return 'done';
}

/** Go's `json: cannot unmarshal number into Go struct field PullRequest.model of type string`. */
function goTypeError(value: unknown, field: string, goType: string): string {
  const kind = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
  return `json: cannot unmarshal ${kind} into Go struct field PullRequest.${field} of type ${goType}`;
}

import type { ModelInfo, ModelParameter } from '../backend/interfaces.js';

/** The parts of an /api/show answer that ochat reads; every field may be missing on old servers. */
export interface ShowResponseLike {
  parameters?: string;
  template?: string;
  /** The Modelfile's `SYSTEM` prompt, if it has one. */
  system?: string;
  modelfile?: string;
  license?: string | string[];
  details?: { family?: string; parameter_size?: string; quantization_level?: string };
  model_info?: Record<string, unknown> | null;
  capabilities?: string[];
}

/**
 * Reads what ochat needs from /api/show: the Modelfile's `num_ctx` (from the `parameters` text,
 * e.g. `num_ctx                        8192`), the trained context from
 * `model_info["<general.architecture>.context_length"]`, and the capabilities.
 */
export function parseModelInfo(name: string, show: ShowResponseLike): ModelInfo {
  const info: ModelInfo = { name, capabilities: capabilitiesOf(show) };
  const numCtx = /^\s*num_ctx\s+(\d+)\s*$/m.exec(show.parameters ?? '')?.[1];
  if (numCtx !== undefined && Number(numCtx) > 0) info.numCtxParam = Number(numCtx);
  const trained = trainedContextOf(show.model_info ?? {});
  if (trained !== undefined) info.trainedContext = trained;
  if (typeof show.system === 'string' && show.system.trim()) info.system = show.system;
  if (show.details?.family) info.family = show.details.family;
  if (show.details?.parameter_size) info.parameterSize = show.details.parameter_size;
  if (show.details?.quantization_level) info.quantization = show.details.quantization_level;
  const modelInfo = show.model_info ?? {};
  const arch = modelInfo['general.architecture'];
  if (typeof arch === 'string' && arch) {
    info.architecture = arch;
    const embedding = modelInfo[`${arch}.embedding_length`];
    if (typeof embedding === 'number') info.embeddingLength = embedding;
  }
  const parameters = parseModelParameters(show.parameters);
  if (parameters.length > 0) info.parameters = parameters;
  for (const field of ['modelfile', 'template'] as const) {
    const text = show[field];
    if (typeof text === 'string' && text !== '') info[field] = text;
  }
  // Old servers sent the license as a list of texts.
  const license = Array.isArray(show.license) ? show.license.join('\n') : show.license;
  if (typeof license === 'string' && license !== '') info.license = license;
  return info;
}

/** Splits /api/show `parameters` (`name<spaces>value` per line) into entries; `stop` may repeat. */
export function parseModelParameters(text: string | undefined): ModelParameter[] {
  return (text ?? '').split('\n').flatMap((line) => {
    const match = /^\s*(\S+)\s+(.*\S)\s*$/.exec(line);
    return match ? [{ name: match[1], value: match[2] }] : [];
  });
}

function trainedContextOf(modelInfo: Record<string, unknown>): number | undefined {
  const arch = modelInfo['general.architecture'];
  const key =
    typeof arch === 'string'
      ? `${arch}.context_length`
      : Object.keys(modelInfo).find((k) => k.endsWith('.context_length')); // no architecture key: take the only one there is
  const value = key === undefined ? undefined : modelInfo[key];
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function capabilitiesOf(show: ShowResponseLike): string[] {
  if (Array.isArray(show.capabilities)) return [...show.capabilities];
  // Servers before `capabilities` existed: tool support shows in the chat template.
  const inferred = ['completion'];
  if (show.template?.includes('.Tools')) inferred.push('tools');
  return inferred;
}

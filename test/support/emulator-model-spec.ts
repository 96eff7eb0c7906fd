import type { EmulatorModel } from './emulator-types.js';

/** Parses `name[+capability…][@numCtxParam]` into a model. */
export function parseModelSpec(spec: string): EmulatorModel {
  const [withCaps, numCtx] = spec.trim().split('@');
  const [name, ...extra] = withCaps.split('+');
  const model: EmulatorModel = { name, capabilities: ['completion', ...extra] };
  if (numCtx !== undefined) model.numCtxParam = Number(numCtx);
  return model;
}

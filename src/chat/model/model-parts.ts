import { LocalModel } from './local-model.js';
import { ModelConnector, type ModelConnectorDeps } from './model-connector.js';

/** The model room's parts: the model connected, and its life at the server (warm-up, loading, pull, /ps). */
export interface ModelParts {
  local: LocalModel;
  connector: ModelConnector;
}

/** The model room's parts; the connector drives the model's life through `local`. */
export function assembleModelParts(deps: Omit<ModelConnectorDeps, 'local'>): ModelParts {
  const local = new LocalModel({
    backend: deps.backend,
    requests: deps.requests,
    screen: deps.screen,
    interactive: deps.interactive,
  });
  return { local, connector: new ModelConnector({ ...deps, local }) };
}

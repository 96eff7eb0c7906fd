import type { OptionCommands } from '../../commands/command-host.js';
import type { KeepAlive } from '../../config/keep-alive.js';
import type { ModelConnector } from '../model/model-connector.js';
import type { ModelSettings } from '../request/model-settings.js';

/** `/set` and `/show parameters` on the Ollama options; `num_ctx` resizes the connected model's window. */
export class ChatOptions implements OptionCommands {
  constructor(
    private readonly settings: ModelSettings,
    private readonly connector: Pick<ModelConnector, 'resize' | 'resizeToModelDefault'>,
  ) {}

  get values(): Readonly<Record<string, unknown>> {
    return this.settings.options;
  }

  source(name: string): 'config' | '/set' {
    return this.settings.optionSource(name);
  }

  set(name: string, value: unknown): unknown {
    if (name !== 'num_ctx' || !this.settings.connected) {
      this.settings.setOption(name, value);
      return value;
    }
    // The window in force may be less than asked for (capped at the trained size): keep and show
    // that. A refused one is not set at all: not shown as set, not saved in the session.
    const inForce = this.connector.resize(value);
    if (inForce === undefined) return undefined;
    this.settings.setOption('num_ctx', inForce);
    return inForce;
  }

  get keepAlive(): KeepAlive | undefined {
    return this.settings.keepAlive;
  }

  setKeepAlive(value: KeepAlive | undefined): void {
    this.settings.setKeepAlive(value);
  }

  unset(name: string): void {
    this.settings.unsetOption(name);
    if (name === 'num_ctx') this.connector.resizeToModelDefault();
  }
}

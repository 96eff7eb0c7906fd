import { loadConfig } from '../config/load.js';
import { buildConfigCache } from '../config/parsed-config-cache.js';
import type { Config } from '../config/schema.js';
import { resolveHost } from '../platform/host.js';
import { configPath } from '../platform/xdg-paths.js';
import { parseCommonArgs } from './common-args.js';
import type { CliFlags } from './flags.js';

/** Everything a run needs, resolved from flags, environment and config file. */
export interface RunSettings {
  flags: CliFlags;
  config: Config;
  configFile: string;
  host: string;
  /** The words after the options (`ochat "question"`): the chat's first message, or with -p the prompt. */
  prompt?: string;
}

/** Parses the command line and resolves the settings; usage and config errors exit with code 2. */
export async function resolveSettings(argv: string[], env: NodeJS.ProcessEnv): Promise<RunSettings> {
  // The common command lines skip loading commander: a few ms of every start.
  const common = parseCommonArgs(argv.slice(2));
  const { flags, words } = common
    ? { flags: common, words: '' }
    : (await import('./command-line.js')).parseCommandLine(argv);
  const { path, explicit } = configPath({ flag: flags.config, env });
  const config = await loadConfig(path, { explicit, env, cache: buildConfigCache(env) });
  if (flags.system !== undefined) config.system = flags.system;
  const host = resolveHost({ flag: flags.host, env: env.OLLAMA_HOST || undefined, config: config.host });
  return { flags, config, configFile: path, host, ...(words ? { prompt: words } : {}) };
}

import { parseCommonArgs } from './common-args.js';
import { loadConfig } from './config/load.js';
import { buildConfigCache } from './config/parsed-config-cache.js';
import { configPath } from './config/paths.js';
import type { Config } from './config/schema.js';
import { resolveHost } from './ollama/host.js';

/** The command-line flags, as commander parses them. */
export interface CliFlags {
  model?: string;
  host?: string;
  config?: string;
  system?: string;
  numCtx?: number;
  print?: string | boolean;
  yes?: boolean;
  /** `-r [id|name]`: true when given without an argument (this directory's newest session). */
  resume?: string | true;
  /** `--continue`: the same as `-r` without an argument. */
  continue?: boolean;
  listSessions?: boolean;
}

/** Everything a run needs, resolved from flags, environment and config file. */
export interface RunSettings {
  flags: CliFlags;
  config: Config;
  configFile: string;
  host: string;
  /** The words after the options (`ochat "question"`): the chat's first message, or with -p the prompt. */
  prompt?: string;
}

/** The command line asked to end the run: --help or --version (code 0), or a usage error already printed. */
export class CommandLineExit extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'CommandLineExit';
  }
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

import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** The directory name ochat uses under the XDG base directories. */
const APP_DIR = 'ochat';

/** The home directory as the given environment sees it (so tests can fake it). */
function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME || homedir();
}

/** `~` and `~/x` as a shell would expand them; a config path from a quoted env var may carry one. */
export function expandHome(path: string, env: NodeJS.ProcessEnv): string {
  if (path === '~') return homeOf(env);
  return path.startsWith('~/') ? join(homeOf(env), path.slice(2)) : path;
}

/** An XDG base directory variable, or the fallback; XDG says empty or relative values are ignored. */
function xdgDir(value: string | undefined, fallback: string): string {
  return value && isAbsolute(value) ? value : fallback;
}

/** Where the config file is, and whether the user named it (then it must exist). */
export interface ConfigLocation {
  path: string;
  explicit: boolean;
}

/**
 * The config file to load: the `-c` flag, else `$OCHAT_CONFIG`, else
 * `$XDG_CONFIG_HOME/ochat/config.yml`, else `~/.config/ochat/config.yml`.
 */
export function configPath({ flag, env }: { flag?: string; env: NodeJS.ProcessEnv }): ConfigLocation {
  if (flag) return { path: expandHome(flag, env), explicit: true };
  if (env.OCHAT_CONFIG) return { path: expandHome(env.OCHAT_CONFIG, env), explicit: true };
  return { path: join(configDir(env), 'config.yml'), explicit: false };
}

/** ochat's config directory: `$XDG_CONFIG_HOME/ochat` or `~/.config/ochat` (the user's AGENTS.md is there). */
export function configDir(env: NodeJS.ProcessEnv): string {
  return join(xdgDir(env.XDG_CONFIG_HOME, join(homeOf(env), '.config')), APP_DIR);
}

/** ochat's data directory (sessions, remembered state): `$XDG_DATA_HOME/ochat` or `~/.local/share/ochat`. */
export function dataDir(env: NodeJS.ProcessEnv): string {
  return join(xdgDir(env.XDG_DATA_HOME, join(homeOf(env), '.local', 'share')), APP_DIR);
}

/** ochat's cache directory (what it can rebuild): `$XDG_CACHE_HOME/ochat` or `~/.cache/ochat`. */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  return join(xdgDir(env.XDG_CACHE_HOME, join(homeOf(env), '.cache')), APP_DIR);
}

/** A path for messages: the home directory shown as `~`, as users write it. */
export function displayPath(path: string, env: NodeJS.ProcessEnv): string {
  const home = homeOf(env);
  if (path === home) return '~';
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

declare const __OCHAT_VERSION__: string | undefined;
declare const __OCHAT_BUILD_ID__: string | undefined;

/** ochat's version: injected by the bundler from package.json; "dev" when run from source. */
export const VERSION: string = typeof __OCHAT_VERSION__ === 'string' ? __OCHAT_VERSION__ : 'dev';

/**
 * The build's fingerprint (its sources and locked dependencies), injected by the bundler: what a
 * build keeps between runs (a parsed config file, compiled code) is used by that build only.
 * Undefined when run from source, where nothing is kept.
 */
export const BUILD_ID: string | undefined =
  typeof __OCHAT_BUILD_ID__ === 'string' ? __OCHAT_BUILD_ID__ : undefined;

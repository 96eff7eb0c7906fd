declare const __OCHAT_VERSION__: string | undefined;

/** ochat's version: injected by the bundler from package.json; "dev" when run from source. */
export const VERSION: string = typeof __OCHAT_VERSION__ === 'string' ? __OCHAT_VERSION__ : 'dev';

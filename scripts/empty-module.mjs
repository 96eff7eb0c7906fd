// Stands in for a module the bundle must not carry (see bundle-options.mjs).
export {};

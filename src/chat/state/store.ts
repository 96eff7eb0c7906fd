/** A minimal observable value, read by Ink components through `useSyncExternalStore`. */
export interface Store<T> {
  get(): T;
  /** Replaces the value (by a partial update) and notifies subscribers. */
  update(patch: Partial<T> | ((state: T) => Partial<T>)): void;
  subscribe(listener: () => void): () => void;
}

/** Creates a store holding `initial`. */
export function createStore<T extends object>(initial: T): Store<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    update(patch) {
      const change = typeof patch === 'function' ? patch(state) : patch;
      state = { ...state, ...change };
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

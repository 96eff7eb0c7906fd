import { describe, expect, it, vi } from 'vitest';
import { createStore } from '../../../src/chat/state/store.js';

describe('createStore', () => {
  it('holds the initial value', () => {
    const initial = { a: 1, b: 'x' };
    expect(createStore(initial).get()).toEqual({ a: 1, b: 'x' });
  });

  it('merges a partial update into a new object and notifies every subscriber', () => {
    const store = createStore({ a: 1, b: 'x' });
    const before = store.get();
    const first = vi.fn();
    const second = vi.fn();
    store.subscribe(first);
    store.subscribe(second);
    store.update({ b: 'y' });
    expect(store.get()).toEqual({ a: 1, b: 'y' });
    // A new identity: useSyncExternalStore re-renders only when the snapshot changes.
    expect(store.get()).not.toBe(before);
    expect(before).toEqual({ a: 1, b: 'x' });
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('accepts an updater that sees the current state', () => {
    const store = createStore({ items: [1] });
    store.update((s) => ({ items: [...s.items, 2] }));
    store.update((s) => ({ items: [...s.items, 3] }));
    expect(store.get().items).toEqual([1, 2, 3]);
  });

  it('stops notifying after unsubscribe', () => {
    const store = createStore({ n: 0 });
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.update({ n: 1 });
    unsubscribe();
    store.update({ n: 2 });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.get().n).toBe(2);
  });

  it('a listener reading the store sees the new state', () => {
    const store = createStore({ n: 0 });
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.get().n));
    store.update({ n: 5 });
    store.update((s) => ({ n: s.n + 1 }));
    expect(seen).toEqual([5, 6]);
  });
});

/** Which tools the model used and which `find_tools` found for it, the most recent first. */
export interface ToolRecencyState {
  used: string[];
  found: string[];
}

/** How many names each list keeps: far more than any window sends. */
const KEPT = 500;

const toFront = (list: readonly string[], names: readonly string[]) =>
  [...new Set([...names, ...list.filter((name) => !names.includes(name))])].slice(0, KEPT);

/**
 * The tools the model called and those `find_tools` found, the most recent first: what decides
 * which definitions stay resident when they are deferred (definition-budget.ts). Saved with the
 * session, so a resumed chat sends the same tools as before.
 */
export class ToolRecency {
  #used: string[] = [];
  #found: string[] = [];
  /** Told of every change (the session recorder saves it); not of `restore`. */
  onChange: ((state: ToolRecencyState) => void) | undefined;

  get used(): readonly string[] {
    return this.#used;
  }

  get found(): readonly string[] {
    return this.#found;
  }

  get state(): ToolRecencyState {
    return { used: [...this.#used], found: [...this.#found] };
  }

  /** The model called these. */
  use(names: readonly string[]): void {
    this.#change(toFront(this.#used, names), this.#found);
  }

  /** `find_tools` returned these. */
  find(names: readonly string[]): void {
    this.#change(this.#used, toFront(this.#found, names));
  }

  /** Told only when an order changed: the same tool called again is no news. */
  #change(used: string[], found: string[]): void {
    const same = (a: readonly string[], b: readonly string[]) =>
      a.length === b.length && a.every((name, i) => name === b[i]);
    if (same(used, this.#used) && same(found, this.#found)) return;
    this.#used = used;
    this.#found = found;
    this.onChange?.(this.state);
  }

  /** Puts a saved state back (a resume, or a new conversation's empty one): nobody is told. */
  restore(state: ToolRecencyState): void {
    this.#used = state.used.slice(0, KEPT);
    this.#found = state.found.slice(0, KEPT);
  }
}

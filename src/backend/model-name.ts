/** A name as Ollama resolves it: lower-case, with the `:latest` tag implied when none is given. */
export function canonicalModelName(name: string): string {
  const lower = name.trim().toLowerCase();
  const lastSegment = lower.slice(lower.lastIndexOf('/') + 1);
  return lastSegment.includes(':') ? lower : `${lower}:latest`;
}

/** Whether two names mean the same model (`Qwen3` and `qwen3:latest` do). */
export function sameModel(a: string, b: string): boolean {
  return canonicalModelName(a) === canonicalModelName(b);
}

/**
 * The installed model a typed name means: the name as typed when it is installed as typed (or
 * with its `:latest` tag left off), else the installed model it names case-insensitively
 * (`/model M1` finds `m1`).
 */
export function findInstalledModel(name: string, installed: readonly string[]): string | undefined {
  if (installed.includes(name) || installed.includes(`${name}:latest`)) return name;
  return installed.find((candidate) => sameModel(candidate, name));
}

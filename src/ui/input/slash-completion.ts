/**
 * Slash-command completion for the prompt: which commands match what has been typed, and what
 * Tab does with them.
 */

/** What the editor needs to know about a slash command (a subset of the command objects). */
export interface SlashCommandInfo {
  /** Name without the slash, e.g. `compact`. */
  name: string;
  /** Other names that run it, e.g. `q` for `quit`. */
  aliases?: readonly string[];
  /** One line of help shown in the completion list. */
  summary: string;
  /** Usage string, e.g. `/compact [instructions]`. */
  usage: string;
}

/** The completion list under the prompt. */
export interface CompletionState {
  /** What the user typed after the slash (lower-cased), from which `matches` were computed. */
  prefix: string;
  matches: readonly SlashCommandInfo[];
  /** Index in `matches` that Tab cycling has put into the text; -1 before cycling. */
  selected: number;
}

/** Matches for a text that is a bare `/word` (no arguments yet); undefined otherwise or if none match. */
export function completionFor(
  text: string,
  commands: readonly SlashCommandInfo[],
): CompletionState | undefined {
  if (!text.startsWith('/') || /\s/.test(text)) return undefined;
  const prefix = text.slice(1).toLowerCase();
  const matches = commands.filter(
    (command) =>
      command.name.toLowerCase().startsWith(prefix) ||
      (command.aliases ?? []).some((alias) => alias.toLowerCase().startsWith(prefix)),
  );
  return matches.length > 0 ? { prefix, matches, selected: -1 } : undefined;
}

function commonPrefix(words: readonly string[]): string {
  let prefix = words[0] ?? '';
  for (const word of words) {
    while (!word.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}

/** What Tab does: the new text and completion list (undefined completion closes the list). */
export interface CompletionStep {
  text: string;
  completion: CompletionState | undefined;
}

/**
 * Tab: a unique match is completed with a trailing space; several matches are first completed to
 * their longest common prefix, then cycled (`direction` -1 for Shift+Tab) with the list kept open.
 */
export function stepCompletion(completion: CompletionState, direction: 1 | -1): CompletionStep {
  const { matches, prefix } = completion;
  if (matches.length === 1) return { text: `/${matches[0].name} `, completion: undefined };
  const shared = commonPrefix(matches.map((command) => command.name.toLowerCase()));
  if (completion.selected === -1 && shared.length > prefix.length && shared.startsWith(prefix)) {
    return { text: `/${shared}`, completion: { prefix: shared, matches, selected: -1 } };
  }
  const count = matches.length;
  const selected =
    completion.selected === -1
      ? direction === 1
        ? 0
        : count - 1
      : (completion.selected + direction + count) % count;
  return { text: `/${matches[selected].name}`, completion: { ...completion, selected } };
}

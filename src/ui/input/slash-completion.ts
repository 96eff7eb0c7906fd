/**
 * Slash-command completion for the prompt: which command names or arguments match what has been
 * typed, and what Tab does with them.
 */

import type { CompletionEntry } from '../../commands/command.js';

export type { CompletionEntry };

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
  /**
   * Candidates for the last word of the argument text typed so far (`args`, everything after the
   * command name); the editor keeps those that start with that word. Must be quick and synchronous.
   */
  complete?(args: string): readonly CompletionEntry[];
}

/** Candidates for the path typed after an `@` so far (quick and synchronous; prefix-filtered again). */
export type PathCompleter = (partial: string) => readonly CompletionEntry[];

/** The completion list under the prompt. */
export interface CompletionState {
  /** Command names (shown as `/name`), argument words, or paths after `@`. */
  kind: 'command' | 'argument' | 'path';
  /** The text before the word being completed: `/` for a name, e.g. `/tools on ` for an argument. */
  head: string;
  /** The word typed so far, from which `matches` were computed. */
  prefix: string;
  matches: readonly CompletionEntry[];
  /** Index in `matches` that Tab cycling has put into the text; -1 before cycling. */
  selected: number;
  /** The text after the cursor, kept as it is (an `@path` is completed anywhere in the text). */
  tail?: string;
}

function startsWithIgnoringCase(text: string, prefix: string): boolean {
  return text.toLowerCase().startsWith(prefix.toLowerCase());
}

function commandCompletion(text: string, commands: readonly SlashCommandInfo[]): CompletionState | undefined {
  const prefix = text.slice(1).toLowerCase();
  const matches = commands
    .filter(
      (command) =>
        startsWithIgnoringCase(command.name, prefix) ||
        (command.aliases ?? []).some((alias) => startsWithIgnoringCase(alias, prefix)),
    )
    .map((command) => ({ value: command.name, summary: command.summary, aliases: command.aliases }));
  return matches.length > 0 ? { kind: 'command', head: '/', prefix, matches, selected: -1 } : undefined;
}

function argumentCompletion(
  text: string,
  commands: readonly SlashCommandInfo[],
): CompletionState | undefined {
  const match = /^\/(\S+)\s+([^\n]*)$/.exec(text);
  if (!match) return undefined;
  const name = match[1].toLowerCase();
  const command = commands.find((c) => c.name === name || c.aliases?.includes(name));
  if (!command?.complete) return undefined;
  const args = match[2];
  const prefix = /\S*$/.exec(args)?.[0] ?? '';
  const matches = command.complete(args).filter((entry) => startsWithIgnoringCase(entry.value, prefix));
  // Nothing to offer, or only what is already typed.
  if (matches.length === 0 || (matches.length === 1 && matches[0].value === prefix)) return undefined;
  return {
    kind: 'argument',
    head: text.slice(0, text.length - prefix.length),
    prefix,
    matches,
    selected: -1,
  };
}

/** Matches for the `@path` word that ends at the cursor, if the cursor is at the end of one. */
function pathCompletion(
  text: string,
  cursor: number,
  completePath: PathCompleter,
): CompletionState | undefined {
  const before = text.slice(0, cursor);
  // Only the last word is looked at: a 100 kB paste must not be scanned on every key.
  const wordStart = Math.max(before.lastIndexOf(' '), before.lastIndexOf('\n'), before.lastIndexOf('\t')) + 1;
  if (before[wordStart] !== '@') return undefined;
  const prefix = before.slice(wordStart + 1);
  const matches = completePath(prefix).filter((entry) => startsWithIgnoringCase(entry.value, prefix));
  if (matches.length === 0 || (matches.length === 1 && matches[0].value === prefix)) return undefined;
  return {
    kind: 'path',
    head: before.slice(0, wordStart + 1),
    prefix,
    matches,
    selected: -1,
    tail: text.slice(cursor),
  };
}

/**
 * Matches for a one-line text starting with `/`: command names while it is a bare `/word`, then the
 * command's own argument candidates; in any other text, paths for an `@word` at the cursor (when
 * `completePath` is given); undefined otherwise or when nothing matches.
 */
export function completionFor(
  text: string,
  commands: readonly SlashCommandInfo[],
  paths?: { cursor: number; completePath: PathCompleter },
): CompletionState | undefined {
  if (!text.startsWith('/'))
    return paths ? pathCompletion(text, paths.cursor, paths.completePath) : undefined;
  if (text.includes('\n')) return undefined;
  return /\s/.test(text) ? argumentCompletion(text, commands) : commandCompletion(text, commands);
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
  /** Where the cursor goes: after the completed word. */
  cursor: number;
  completion: CompletionState | undefined;
}

/**
 * Tab: a unique match is completed with a trailing space; several matches are first completed to
 * their longest common prefix, then cycled (`direction` -1 for Shift+Tab) with the list kept open.
 */
export function stepCompletion(completion: CompletionState, direction: 1 | -1): CompletionStep {
  const { matches, prefix, head } = completion;
  const tail = completion.tail ?? '';
  const step = (word: string, next: CompletionState | undefined): CompletionStep => ({
    text: `${head}${word}${tail}`,
    cursor: head.length + word.length,
    completion: next,
  });
  if (matches.length === 1) {
    const value = matches[0].value;
    // A directory is completed without the space: its entries come next.
    const separator = value.endsWith('/') || /^\s/.test(tail) ? '' : ' ';
    return step(`${value}${separator}`, undefined);
  }
  const values = matches.map((entry) =>
    completion.kind === 'command' ? entry.value.toLowerCase() : entry.value,
  );
  const shared = commonPrefix(values);
  if (completion.selected === -1 && shared.length > prefix.length && startsWithIgnoringCase(shared, prefix)) {
    return step(shared, { ...completion, prefix: shared });
  }
  const count = matches.length;
  const selected =
    completion.selected === -1
      ? direction === 1
        ? 0
        : count - 1
      : (completion.selected + direction + count) % count;
  return step(matches[selected].value, { ...completion, selected });
}

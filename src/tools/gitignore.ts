import { basename, isAbsolute, relative, sep } from 'node:path';
import { globToRegExp } from './glob-pattern.js';

/** One rule of a .gitignore file, bound to the directory that file is in. */
export interface IgnoreRule {
  /** The directory of the .gitignore file; the pattern is relative to it. */
  base: string;
  regex: RegExp;
  negated: boolean;
  /** A pattern ending in `/` matches directories only. */
  dirOnly: boolean;
  /** A pattern with a `/` before its end is matched against the path from `base`, else against the name. */
  anchored: boolean;
}

/**
 * Parses a .gitignore file into rules. Supported: comments, blank lines, `!` negation, `\` escapes,
 * trailing `/` for directories, anchoring by a leading or inner `/`, `*`, `?`, `**` and `[…]`.
 * Not supported: escaped trailing spaces. A pattern that does not parse is skipped.
 */
export function parseGitignore(text: string, base: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    let pattern = rawLine.replace(/\s+$/, '');
    if (pattern === '' || pattern.startsWith('#')) continue;
    const negated = pattern.startsWith('!');
    if (negated) pattern = pattern.slice(1);
    const dirOnly = pattern.endsWith('/');
    if (dirOnly) pattern = pattern.replace(/\/+$/, '');
    const anchored = pattern.includes('/');
    if (pattern.startsWith('/')) pattern = pattern.slice(1);
    if (pattern === '') continue;
    try {
      rules.push({ base, regex: globToRegExp(pattern, { braces: false }), negated, dirOnly, anchored });
    } catch {
      // A malformed pattern ignores nothing rather than failing the whole search.
    }
  }
  return rules;
}

/** Whether `absolutePath` is ignored by `rules` (in file order, ancestors first): the last matching rule wins. */
export function isIgnored(rules: IgnoreRule[], absolutePath: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const rule of rules) {
    if (rule.dirOnly && !isDirectory) continue;
    const rel = relative(rule.base, absolutePath);
    if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) continue;
    const subject = rule.anchored ? rel.split(sep).join('/') : basename(rel);
    if (rule.regex.test(subject)) ignored = !rule.negated;
  }
  return ignored;
}

/**
 * How far an "always" answer to a `run_command` call reaches: the command's leading words
 * (program and subcommand, e.g. `npm test`), and only for simple commands. A line that chains,
 * pipes, redirects or substitutes (`;`, `&&`, `|`, `>`, `$(…)`, backticks…) is never approved by
 * a prefix, or `npm test; rm -rf ~` would pass as `npm test`.
 */

// Anything that can make a line more than one simple command, redirect it or expand into other
// text; checked anywhere in the line, quoted or not, to stay on the safe side.
const SHELL_SYNTAX = /[;&|<>`$()\\\x00-\x1f\x7f]/;

// A subcommand looks like a word (`test`, `run`, `build:prod`), not an option, path or file name.
const SUBCOMMAND = /^[A-Za-z][A-Za-z0-9_:-]*$/;

// Programs whose arguments are another command: approving their prefix would approve anything.
const COMMAND_RUNNERS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'fish',
  'ksh',
  'sudo',
  'doas',
  'su',
  'env',
  'xargs',
  'eval',
  'exec',
  'command',
  'builtin',
  'nohup',
  'nice',
  'time',
  'timeout',
  'watch',
  'ssh',
  'script',
  'stdbuf',
  'setsid',
]);

/**
 * The words of a simple command line (quotes removed), or undefined when the line is not one
 * simple command: shell syntax anywhere, an unterminated quote, or no words at all.
 */
export function simpleCommandWords(line: string): string[] | undefined {
  if (SHELL_SYNTAX.test(line)) return undefined;
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = undefined;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (char === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (quote) return undefined;
  if (word !== undefined) words.push(word);
  return words.length > 0 ? words : undefined;
}

/**
 * The leading words "always" approves for this command line: the program, plus its subcommand
 * when the second word looks like one (`npm test`, `git status`, but `ls` for `ls -la`).
 * Undefined when nothing may be approved beyond this one run: not a simple command, a leading
 * variable assignment, or a program that runs another command (`sh`, `sudo`, `xargs`…).
 */
export function commandApprovalPrefix(line: string): string[] | undefined {
  const words = simpleCommandWords(line);
  if (!words) return undefined;
  const [program, second] = words;
  if (program === '' || program.includes('=') || COMMAND_RUNNERS.has(program.split('/').pop() ?? '')) {
    return undefined;
  }
  return second !== undefined && SUBCOMMAND.test(second) ? [program, second] : [program];
}

/** Whether `line` is a simple command that starts with the words of `prefix`. */
export function commandHasPrefix(line: string, prefix: readonly string[]): boolean {
  const words = simpleCommandWords(line);
  if (!words || words.length < prefix.length) return false;
  return prefix.every((word, index) => words[index] === word);
}

/** The prefix as shown to the user: `npm test …`, quoting words that hold spaces or quotes. */
export function describeCommandPrefix(prefix: readonly string[]): string {
  const shown = prefix.map((word) => (/^[^\s'"]+$/.test(word) ? word : JSON.stringify(word)));
  return `${shown.join(' ')} …`;
}

/**
 * Syntax highlighting of fenced code for the terminal: highlight.js 11 (through emphasize) with
 * its common languages and a small ANSI theme in the terminal's own palette.
 */
import chalk from 'chalk';
import { common, createEmphasize } from 'emphasize';

const highlighter = createEmphasize(common);

// highlight.js scopes (without `hljs-`) → style; the rest stays in the terminal's colour.
const THEME = {
  comment: chalk.gray,
  quote: chalk.gray,
  keyword: chalk.magenta,
  'selector-tag': chalk.magenta,
  built_in: chalk.cyan,
  type: chalk.cyan,
  literal: chalk.blue,
  number: chalk.blue,
  string: chalk.green,
  regexp: chalk.green,
  'template-variable': chalk.yellow,
  variable: chalk.yellow,
  attr: chalk.yellow,
  attribute: chalk.yellow,
  title: chalk.blue,
  'title function_': chalk.blue,
  'title class_': chalk.yellow,
  section: chalk.blue.bold,
  meta: chalk.gray,
  symbol: chalk.magenta,
  bullet: chalk.magenta,
  addition: chalk.green,
  deletion: chalk.red,
  emphasis: chalk.italic,
  strong: chalk.bold,
};

/** Whether `language` (a fence's info string: a name or an alias) can be highlighted. */
export function isHighlightable(language: string): boolean {
  return highlighter.registered(language);
}

// A block without a known language: one colour, as marked-terminal styles code.
const plainCode = chalk.yellow;

/**
 * `code` styled for the terminal: highlighted when `language` is one highlight.js knows, else in
 * one colour (no language, or an unknown one: the model chooses the fence's info string).
 */
export function highlightCode(code: string, language: string | undefined): string {
  if (chalk.level === 0) return code;
  if (!language || !isHighlightable(language)) return plainCode(code);
  try {
    return highlighter.highlight(language, code, THEME).value;
  } catch {
    return plainCode(code);
  }
}

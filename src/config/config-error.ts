/** One problem found in a config file, located as precisely as the problem allows. */
export interface ConfigIssue {
  /** 1-based line of the offending key or value; absent for whole-file problems. */
  line?: number;
  /** 1-based column. */
  column?: number;
  /** Dotted path of the offending key, e.g. `compaction.reserve.ratio` or `tools.enabled[1]`. */
  key?: string;
  /** What is wrong, e.g. `unknown key (did you mean "reserve"?)`. */
  message: string;
}

/** `file:line:col: key: message`, the shape editors and terminals recognise as a location. */
function formatIssue(file: string, issue: ConfigIssue): string {
  const location = [file, issue.line, issue.line !== undefined ? issue.column : undefined]
    .filter((part) => part !== undefined)
    .join(':');
  return issue.key ? `${location}: ${issue.key}: ${issue.message}` : `${location}: ${issue.message}`;
}

/** A file with thousands of bad keys is one mistake: a screenful of them says so. */
export const MAX_SHOWN_ISSUES = 20;

/**
 * A config file that cannot be used: missing, unreadable, not YAML, or not a valid config.
 * The message holds one line per issue (`file:line:col: key: message`), at most {@link MAX_SHOWN_ISSUES}; the fields describe
 * the first one, for callers that want to point at it.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  /** The config file as shown to the user (home directory abbreviated to `~`). */
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  readonly key?: string;
  /** Every issue found, in file order; never empty. */
  readonly issues: readonly ConfigIssue[];

  constructor(file: string, issues: ConfigIssue[]) {
    const shown = issues.slice(0, MAX_SHOWN_ISSUES).map((issue) => formatIssue(file, issue));
    const more = issues.length - shown.length;
    super([...shown, ...(more > 0 ? [`${file}: … and ${more} more issues`] : [])].join('\n'));
    this.file = file;
    this.issues = issues;
    this.line = issues[0]?.line;
    this.column = issues[0]?.column;
    this.key = issues[0]?.key;
  }
}

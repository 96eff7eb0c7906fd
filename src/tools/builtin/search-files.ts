import { basename, relative, sep } from 'node:path';
import { looksBinary } from '../../files/binary-content.js';
import { readRegularFile } from '../../files/regular-file.js';
import { hardLinkRefusal, resolveSandboxedPath, type SandboxScope } from '../../files/sandbox.js';
import { openCheckedFile } from '../../files/sandbox-open.js';
import { errnoCode } from '../../platform/errno.js';
import { describeError } from '../../text/describe-error.js';
import { oneLine } from '../../text/shorten.js';
import { asDirectory, displayPath } from '../display-path.js';
import { failureLine, toolFailure } from '../failure-line.js';
import { globToRegExp } from '../glob-pattern.js';
import { LineMatcher, MatchingStopped } from '../line-matcher.js';
import { plural, splitLines } from '../text-lines.js';
import type { Tool } from '../tool.js';
import { walkFiles } from '../walk-files.js';

/** Arguments of `search_files`. */
export type SearchFilesArgs = { pattern: string; path?: string; glob?: string };

/** Matches reported at most; the search stops there. */
export const MAX_SEARCH_MATCHES = 200;
/** Larger files are skipped: they are data, not source. */
const MAX_SEARCHED_BYTES = 2 * 1024 * 1024;
/** Text sent to the matching thread at a time: few round trips, bounded memory. */
const BATCH_CHARS = 4 * 1024 * 1024;
/** A matching line is shown up to this many characters (minified code has huge lines). */
const MAX_LINE_CHARS = 300;

/**
 * Searches file contents with a regular expression, like grep -rn. Walks the directory itself with
 * a small .gitignore matcher (no `git` needed, same result in and out of repositories); skips
 * binary files, node_modules/ and .git/.
 */
export const searchFilesTool: Tool<SearchFilesArgs> = {
  name: 'search_files',
  description:
    'Search file contents with a regular expression (JavaScript syntax). Respects .gitignore; returns "path:line: text" for each match.',
  parameters: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'Regular expression to look for; prefix (?i) to ignore case' },
      path: { type: 'string', description: 'Directory or file to search (default ".")' },
      glob: { type: 'string', description: 'Only files matching this glob, e.g. "*.ts" or "src/**/*.md"' },
    },
    required: ['pattern'],
  },
  keyArgument: (args) => `"${args.pattern}" in ${args.path ?? '.'}`,
  async run(args, ctx) {
    const requested = args.path ?? '.';
    const resolved = resolveSandboxedPath(requested, ctx);
    if (!resolved.ok) return toolFailure(resolved.error, 'access denied');
    let regex: RegExp;
    let fileFilter: RegExp | undefined;
    try {
      regex = compilePattern(args.pattern);
    } catch (error) {
      return toolFailure(`Invalid regular expression: ${(error as Error).message}`, 'invalid pattern');
    }
    try {
      fileFilter = args.glob ? globToRegExp(args.glob) : undefined;
    } catch (error) {
      return toolFailure(`Invalid glob: ${(error as Error).message}`, 'invalid glob');
    }
    const root = resolved.path;
    const lines: string[] = [];
    const filesWithMatches = new Set<string>();
    let filesSearched = 0;
    /** Files skipped for having other hard links (see hardLinkRefusal). */
    let linked = 0;
    const matcher = new LineMatcher(regex, ctx.commandTimeoutMs, ctx.signal);
    let batch: { file: string; lines: string[] }[] = [];
    let batchChars = 0;
    const matchBatch = async () => {
      const found = await matcher.match(
        batch.map((entry) => entry.lines),
        MAX_SEARCH_MATCHES - lines.length,
      );
      for (const [fileIndex, lineIndex] of found) {
        const { file, lines: fileLines } = batch[fileIndex];
        lines.push(
          `${displayPath(file, ctx.cwd)}:${lineIndex + 1}: ${oneLine(fileLines[lineIndex], MAX_LINE_CHARS)}`,
        );
        filesWithMatches.add(file);
      }
      batch = [];
      batchChars = 0;
    };
    try {
      for await (const file of walkFiles(root, ctx, ctx.signal)) {
        if (fileFilter && !matchesGlob(fileFilter, args.glob!, relative(root, file))) continue;
        if (hardLinkRefusal(file, file, ctx, 'read')) {
          linked++;
          continue;
        }
        const content = await readSearchable(file, ctx);
        if (content === undefined) continue;
        filesSearched++;
        batch.push({ file, lines: splitLines(content) });
        batchChars += content.length;
        if (batchChars >= BATCH_CHARS) await matchBatch();
        if (lines.length >= MAX_SEARCH_MATCHES) break;
      }
      if (batch.length > 0) await matchBatch();
    } catch (error) {
      if (error instanceof MatchingStopped && error.reason === 'too slow') {
        const seconds = ctx.commandTimeoutMs / 1000;
        return toolFailure(
          `search stopped: pattern too slow (still matching after ${seconds} s, tools.command_timeout). Simplify the pattern: nested quantifiers such as (a+)+ take exponential time.`,
          'pattern too slow',
        );
      }
      if (error instanceof MatchingStopped) return toolFailure('The search was cancelled.', 'cancelled');
      const code = errnoCode(error);
      if (code === 'ENOENT') return toolFailure(`Not found: ${requested}`, 'not found');
      return toolFailure(`Search failed: ${describeError(error)}`, code ?? 'search error');
    } finally {
      await matcher.close();
    }
    if (ctx.signal?.aborted) return toolFailure('The search was cancelled.', 'cancelled');
    const capped = lines.length >= MAX_SEARCH_MATCHES;
    const details = { matches: lines.length, files: filesWithMatches.size, filesSearched, capped, linked };
    const linkedNote = linked
      ? `\n[${plural(linked, 'file')} with more than one hard link not searched: the same file may also be outside the working directory; tools.allowed_paths lists where such files may be read]`
      : '';
    if (lines.length === 0) {
      return {
        ok: true,
        output: `No matches (searched ${plural(filesSearched, 'file')}).${linkedNote}`,
        details,
      };
    }
    const note = capped
      ? `\n[stopped at ${MAX_SEARCH_MATCHES} matches; narrow the pattern, path or glob]`
      : '';
    return { ok: true, output: lines.join('\n') + note + linkedNote, details };
  },
  summaryLine(args, outcome) {
    const where = `"${args.pattern}" in ${asDirectory(args.path ?? '.')}`;
    if (!outcome.ok) return failureLine(`search ${where}`, outcome);
    const { matches, files, capped } = outcome.details as { matches: number; files: number; capped: boolean };
    const count = capped
      ? `first ${plural(matches, 'match', 'matches')}`
      : plural(matches, 'match', 'matches');
    return `searched ${where} (${count} in ${plural(files, 'file')})`;
  },
};

/** Compiles the model's pattern; a leading `(?i)` (common in other regex dialects) means ignore case. */
function compilePattern(pattern: string): RegExp {
  if (pattern.startsWith('(?i)')) return new RegExp(pattern.slice(4), 'i');
  return new RegExp(pattern);
}

/** A glob with a `/` is matched against the path from the search root, else against the file name. */
function matchesGlob(filter: RegExp, glob: string, relativePath: string): boolean {
  const posix = relativePath.split(sep).join('/');
  return filter.test(glob.includes('/') ? posix : basename(posix));
}

/** The file's text, or undefined for files not worth searching (binary, too large, unreadable). */
async function readSearchable(file: string, ctx: SandboxScope): Promise<string | undefined> {
  try {
    // Opened by the sandbox's walk: a directory swapped for a link meanwhile is not followed out.
    const open = (flags: number) => openCheckedFile(file, file, ctx, 'read', { flags });
    const read = await readRegularFile(open, MAX_SEARCHED_BYTES);
    if (read.kind !== 'ok') return undefined;
    return looksBinary(read.content) ? undefined : read.content.toString('utf8');
  } catch {
    return undefined;
  }
}

import { resolveSandboxedPath } from '../../files/sandbox.js';
import {
  DIRECTORY_OPEN,
  openInSandbox,
  readOpenDirectory,
  SandboxRaceError,
} from '../../files/sandbox-open.js';
import { errnoCode } from '../../platform/errno.js';
import { describeError } from '../../text/describe-error.js';
import { asDirectory } from '../display-path.js';
import { failureLine, toolFailure } from '../failure-line.js';
import { plural } from '../text-lines.js';
import type { Tool } from '../tool.js';

/** Arguments of `list_directory`. */
export type ListDirectoryArgs = { path?: string };

/** Entries listed at most; a larger directory is cut with a note. */
const MAX_ENTRIES = 1000;

/** Lists a directory inside the sandbox: sorted names, directories marked with `/`. */
export const listDirectoryTool: Tool<ListDirectoryArgs> = {
  name: 'list_directory',
  description: 'List the entries of a directory (sorted; directories end with "/").',
  parameters: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        description: 'Directory path, relative to the working directory (default ".")',
      },
    },
  },
  keyArgument: (args) => args.path ?? '.',
  async run(args, ctx) {
    const requested = args.path ?? '.';
    const resolved = resolveSandboxedPath(requested, ctx);
    if (!resolved.ok) return toolFailure(resolved.error, 'access denied');
    let names: string[];
    try {
      // Listed by descriptor, opened by the sandbox's walk: a swap after the check cannot lead outside.
      const dir = await openInSandbox(resolved.path, ctx, DIRECTORY_OPEN);
      const entries = await readOpenDirectory(dir, resolved.path, ctx).finally(() => dir.close());
      names = entries.map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
    } catch (error) {
      if (error instanceof SandboxRaceError)
        return toolFailure(`Refused: ${requested}: ${error.message}. It was not listed.`, 'access denied');
      const code = errnoCode(error);
      if (code === 'ENOENT') return toolFailure(`Directory not found: ${requested}`, 'not found');
      if (code === 'ENOTDIR')
        return toolFailure(`${requested} is a file, not a directory; use read_file.`, 'not a directory');
      return toolFailure(`Cannot list ${requested}: ${describeError(error)}`, code ?? 'list error');
    }
    // Code-unit order, not locale order: the listing must not depend on the machine's locale.
    names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const shown = names.slice(0, MAX_ENTRIES);
    let output = names.length === 0 ? '(empty directory)' : shown.join('\n');
    if (names.length > shown.length) output += `\n[… ${names.length - shown.length} more entries not shown]`;
    return { ok: true, output, details: { entries: names.length } };
  },
  summaryLine(args, outcome) {
    const shown = asDirectory(args.path ?? '.');
    if (!outcome.ok) return failureLine(`list ${shown}`, outcome);
    return `listed ${shown} (${plural(outcome.details?.entries as number, 'entry', 'entries')})`;
  },
};

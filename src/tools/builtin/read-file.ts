import { looksBinary } from '../../files/binary-content.js';
import { readRegularFile } from '../../files/regular-file.js';
import { resolveSandboxedPath } from '../../files/sandbox.js';
import { openCheckedFile, SandboxRaceError } from '../../files/sandbox-open.js';
import { errnoCode } from '../../platform/errno.js';
import { describeError } from '../../text/describe-error.js';
import { failureLine, toolFailure } from '../failure-line.js';
import { splitLines } from '../text-lines.js';
import type { Tool } from '../tool.js';

/** Arguments of `read_file`. */
export type ReadFileArgs = { path: string; offset?: number; limit?: number };

/** Lines returned when the model gives no `limit`. */
export const DEFAULT_READ_LIMIT = 2000;
/** Larger files are refused: reading them whole would blow the context and the memory. */
const MAX_READ_BYTES = 10 * 1024 * 1024;

/** Reads a text file (or a range of its lines) inside the sandbox. */
export const readFileTool: Tool<ReadFileArgs> = {
  name: 'read_file',
  description:
    'Read a text file. Returns its lines; for long files use offset (1-based first line) and limit (number of lines).',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File path, relative to the working directory' },
      offset: { type: 'integer', description: 'First line to read, 1-based (default 1)' },
      limit: { type: 'integer', description: `Maximum number of lines (default ${DEFAULT_READ_LIMIT})` },
    },
    required: ['path'],
  },
  keyArgument: (args) => args.path,
  async run(args, ctx) {
    const resolved = resolveSandboxedPath(args.path, ctx);
    if (!resolved.ok) return toolFailure(resolved.error, 'access denied');
    const offset = Math.max(1, Math.floor(args.offset ?? 1));
    const limit = Math.max(1, Math.floor(args.limit ?? DEFAULT_READ_LIMIT));
    let content: Buffer;
    try {
      // Opened by the sandbox's walk: a swap between the check and the open cannot lead outside.
      const open = (flags: number) => openCheckedFile(args.path, resolved.path, ctx, 'read', { flags });
      const read = await readRegularFile(open, MAX_READ_BYTES);
      if (read.kind === 'not-regular') {
        return read.what === 'a directory'
          ? toolFailure(
              `${args.path} is a directory; use list_directory to see its entries.`,
              'is a directory',
            )
          : toolFailure(
              `${args.path} is ${read.what}, not a regular file; only files can be read.`,
              'not a regular file',
            );
      }
      if (read.kind === 'too-large') {
        return toolFailure(
          `${args.path} is ${read.size.toLocaleString('en-US')} bytes, too large to read.`,
          'too large',
        );
      }
      content = read.content;
    } catch (error) {
      if (error instanceof SandboxRaceError)
        return toolFailure(`Refused: ${args.path}: ${error.message}. It was not read.`, 'access denied');
      const code = errnoCode(error);
      if (code === 'ENOENT') return toolFailure(`File not found: ${args.path}`, 'file not found');
      return toolFailure(`Cannot read ${args.path}: ${describeError(error)}`, code ?? 'read error');
    }
    if (looksBinary(content))
      return toolFailure(`${args.path} is a binary file; only text files can be read.`, 'binary file');
    const lines = splitLines(content.toString('utf8'));
    const totalLines = lines.length;
    if (totalLines > 0 && offset > totalLines) {
      return toolFailure(
        `offset ${offset} is past the end: ${args.path} has ${totalLines} lines.`,
        'offset past the end',
      );
    }
    const shown = lines.slice(offset - 1, offset - 1 + limit);
    const endLine = offset - 1 + shown.length;
    let output = shown.join('\n');
    if (totalLines === 0) output = '(empty file)';
    else if (offset > 1 || endLine < totalLines) {
      const more = endLine < totalLines ? `; use offset=${endLine + 1} to read on` : '';
      output += `\n[lines ${offset}–${endLine} of ${totalLines}${more}]`;
    }
    return { ok: true, output, details: { startLine: offset, endLine, totalLines } };
  },
  summaryLine(args, outcome) {
    if (!outcome.ok) return failureLine(`read ${args.path}`, outcome);
    const { startLine, endLine, totalLines } = outcome.details as Record<string, number>;
    if (totalLines === 0) return `read ${args.path} (empty)`;
    return `read ${args.path} (lines ${startLine}–${endLine} of ${totalLines})`;
  },
};

import { constants, statSync } from 'node:fs';
import { nonRegularKind, readRegularFile } from '../../files/regular-file.js';
import { resolveSandboxedPath } from '../../files/sandbox.js';
import { openCheckedFile, SandboxRaceError } from '../../files/sandbox-open.js';
import { errnoCode } from '../../platform/errno.js';
import { describeError } from '../../text/describe-error.js';
import { failureLine, toolFailure } from '../failure-line.js';
import { plural, splitLines } from '../text-lines.js';
import type { Tool } from '../tool.js';
import { type ExistingFile, existingFileOf, previewWrite } from '../write-preview.js';

/** Largest existing file the confirmation diffs against. */
const PREVIEW_MAX_BYTES = 1024 * 1024;

const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK;

/** What is at `path`: null when nothing, undefined for a regular file, else what it is. */
function existingKind(path: string): string | undefined | null {
  try {
    return nonRegularKind(statSync(path));
  } catch {
    return null;
  }
}

/** Arguments of `write_file`. */
export type WriteFileArgs = { path: string; content: string };

/** Creates or overwrites a text file inside the sandbox, creating missing parent directories. */
export const writeFileTool: Tool<WriteFileArgs> = {
  name: 'write_file',
  description:
    'Create or overwrite a text file with the given content. Missing parent directories are created.',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File path, relative to the working directory' },
      content: { type: 'string', description: 'The complete new content of the file' },
    },
    required: ['path', 'content'],
  },
  keyArgument: (args) => args.path,
  approvalScope(args, ctx) {
    // The same file however the path is spelled (`./a.md`, `a.md`); a refused path is never remembered.
    const resolved = resolveSandboxedPath(args.path, ctx, 'write');
    if (!resolved.ok) return null;
    return {
      scope: args.path,
      covers: (later, laterCtx) => {
        const target = resolveSandboxedPath(later.path, laterCtx, 'write');
        return target.ok && target.path === resolved.path;
      },
    };
  },
  refusal(args, ctx) {
    const resolved = resolveSandboxedPath(args.path, ctx, 'write');
    if (!resolved.ok) return toolFailure(resolved.error, 'access denied');
    const existing = existingKind(resolved.path);
    if (existing === 'a directory') return toolFailure(`${args.path} is a directory.`, 'is a directory');
    // Opening a FIFO for writing blocks until someone reads it; a device is never what was meant.
    if (existing)
      return toolFailure(
        `${args.path} is ${existing}, not a regular file; it was not written.`,
        'not a regular file',
      );
    return undefined;
  },
  async preview(args, ctx) {
    const resolved = resolveSandboxedPath(args.path, ctx, 'write');
    // A path the run will refuse gets no preview: the refusal is what the user will see.
    if (!resolved.ok) return undefined;
    let existing: ExistingFile;
    try {
      const open = (flags: number) => openCheckedFile(args.path, resolved.path, ctx, 'read', { flags });
      const read = await readRegularFile(open, PREVIEW_MAX_BYTES);
      if (read.kind === 'not-regular') return undefined;
      existing = read.kind === 'ok' ? existingFileOf(read.content) : { kind: 'too-large', bytes: read.size };
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') return undefined;
      existing = { kind: 'none' };
    }
    return previewWrite(existing, args.content);
  },
  async run(args, ctx) {
    // Checked again: the file may have changed while the user was asked.
    const refused = writeFileTool.refusal?.(args, ctx);
    if (refused) return refused;
    const resolved = resolveSandboxedPath(args.path, ctx, 'write');
    if (!resolved.ok) return toolFailure(resolved.error, 'access denied');
    const existed = existingKind(resolved.path) !== null;
    try {
      // Opened by the sandbox's walk (parents made on the way), not truncated until the file opened
      // is known to be a regular file with no other hard links: a swap after the check cannot
      // redirect the write. Non-blocking: a FIFO that appears fails the open instead of waiting.
      const handle = await openCheckedFile(args.path, resolved.path, ctx, 'write', {
        flags: WRITE_FLAGS,
        createParents: true,
        mode: 0o666,
      });
      try {
        const what = nonRegularKind(await handle.stat());
        if (what)
          return toolFailure(
            `${args.path} is ${what}, not a regular file; it was not written.`,
            'not a regular file',
          );
        await handle.truncate(0);
        await handle.writeFile(args.content, 'utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (error instanceof SandboxRaceError)
        return toolFailure(`Refused: ${args.path}: ${error.message}. It was not written.`, 'access denied');
      const code = errnoCode(error);
      return toolFailure(`Cannot write ${args.path}: ${describeError(error)}`, code ?? 'write error');
    }
    const lines = splitLines(args.content).length;
    const bytes = Buffer.byteLength(args.content, 'utf8');
    const verb = existed ? 'Overwrote' : 'Created';
    return {
      ok: true,
      output: `${verb} ${args.path} (${plural(lines, 'line')}, ${plural(bytes, 'byte')}).`,
      details: { lines, bytes, created: !existed },
    };
  },
  summaryLine(args, outcome) {
    if (!outcome.ok) return failureLine(`write ${args.path}`, outcome);
    return `wrote ${args.path} (${plural(outcome.details?.lines as number, 'line')})`;
  },
};

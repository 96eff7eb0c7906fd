import { CommandLineExit } from '../cli/flags.js';
import { type RunSettings, resolveSettings } from '../cli/settings.js';
import { ConfigError } from '../config/config-error.js';
import { exitQuietlyWhenOutputCloses } from '../platform/closed-output.js';
import { isatty, openEarlyTerminal } from '../platform/early-terminal.js';
import { InvalidHostError } from '../platform/host.js';
import { onStdioStream } from '../platform/stdio-streams.js';
import { takeTypeahead } from '../platform/typeahead.js';
import { describeError } from '../text/describe-error.js';
import { filterTerminalOutput, guardTerminalOutput } from '../text/sanitize.js';

/**
 * Whether `env` names a terminal without cursor addressing, where Ink's redrawn frames cannot work.
 * Here, not in line-mode.ts: deciding must not load line mode (and node:readline) on every start.
 */
function isDumbTerminal(env: NodeJS.ProcessEnv): boolean {
  return env.TERM === 'dumb';
}

async function main(): Promise<void> {
  // chalk ignores NO_COLOR (no-color.org) but honours FORCE_COLOR=0, read when it loads: after this.
  if (process.env.NO_COLOR) process.env.FORCE_COLOR = '0';
  // stderr carries only text: error messages may echo config keys, hosts, model names, tool lines.
  // The stdio streams get their guards as they are created: the first frame is drawn without them.
  onStdioStream('stderr', (stream) => guardTerminalOutput(stream, 'text'));
  exitQuietlyWhenOutputCloses();
  if (process.argv[2] === 'eval') {
    // `ochat eval compaction`: plain text out, its module loaded only for it.
    onStdioStream('stdout', (stream) => guardTerminalOutput(stream, 'text'));
    const { runEval } = await import('./eval-compaction.js');
    process.exitCode = await runEval(process.argv.slice(3), process.env);
    return;
  }
  let settings: RunSettings;
  try {
    settings = await resolveSettings(process.argv, process.env);
  } catch (error) {
    if (error instanceof CommandLineExit) {
      // --help and --version end here too, with code 0; usage errors were already printed.
      process.exit(error.exitCode === 0 ? 0 : 2);
    }
    if (error instanceof ConfigError || error instanceof InvalidHostError) {
      process.stderr.write(`ochat: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  if (settings.flags.listSessions) {
    const { listSessions } = await import('../sessions/cli-sessions.js');
    process.exit(listSessions(process.env));
  }
  if (settings.flags.continue && settings.flags.resume === undefined) settings.flags.resume = true;
  if (settings.flags.resume !== undefined) {
    if (settings.flags.print !== undefined) {
      process.stderr.write(
        'ochat: --resume is for the interactive chat; -p does not save or resume sessions.\n',
      );
      process.exit(2);
    }
    const { checkResumable } = await import('../sessions/cli-sessions.js');
    const problem = checkResumable(settings.flags.resume, process.env, process.cwd());
    if (problem) {
      process.stderr.write(`ochat: ${problem}\n`);
      process.exit(2);
    }
  }
  const lineMode = isDumbTerminal(process.env);
  // stdout: plain text in one-shot and line mode; Ink's frames, with its own styling, otherwise.
  const stdoutPolicy = settings.flags.print !== undefined || lineMode ? 'text' : 'ink';
  onStdioStream('stdout', (stream) => guardTerminalOutput(stream, stdoutPolicy));
  if (settings.flags.print !== undefined) {
    const { runOneShot } = await import('./one-shot.js');
    process.exitCode = await runOneShot(settings);
    return;
  }
  if (!isatty(0)) {
    process.stderr.write(
      'ochat: the interactive chat needs a terminal. For scripts and pipes use -p "prompt".\n',
    );
    process.exit(2);
  }
  if (lineMode) {
    const { runLineMode } = await import('./line-mode.js');
    await runLineMode(settings);
    return;
  }
  // The first frame goes up before the UI's modules load: they are most of the start-up.
  const { drawFirstFrame } = await import('../ui/first-frame.js');
  // Drawn before process.stdin and stdout exist, when it can be: creating them loads node:net.
  const terminal = openEarlyTerminal((text) => filterTerminalOutput(text, 'ink')) ?? process;
  const firstFrame = drawFirstFrame(terminal, settings.flags.model ?? settings.config.model, takeTypeahead);
  const { runInteractive } = await import('./interactive.js');
  await runInteractive(settings, firstFrame);
}

/** Last resort: a bug, not a user error. Said plainly, without a stack trace unless asked. */
function endOnBug(error: unknown): never {
  process.stderr.write(`ochat: unexpected error: ${describeError(error)}\n`);
  if (process.env.OCHAT_DEBUG) console.error(error);
  process.exit(1);
}

// Thrown from a callback (an input handler, a timer): Node would print the throwing line of the
// bundle, one minified line of thousands of characters, and a stack trace.
process.on('uncaughtException', endOnBug);
main().catch(endOnBug);

import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { VERSION } from '../platform/version.js';
import type { CliFlags } from './flags.js';
import { CommandLineExit } from './flags.js';

/** `-c ""` names no file: a usage error, not a silent fall-back to the default config. */
function nonEmptyPath(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('expected a file name, e.g. ~/ochat.yml.');
  return value;
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new InvalidArgumentError('expected a positive whole number, e.g. 8192.');
  return n;
}

function buildProgram(): Command {
  return new Command('ochat')
    .description(
      'Chat with local models in the terminal (Ollama, or an OpenAI-compatible server), with built-in conversation compaction.',
    )
    .version(VERSION, '-v, --version', 'print the version')
    .option(
      '-m, --model <name>',
      'model to chat with (default: config `model`, the last used, or the only installed; the chat offers a choice of several)',
    )
    .option(
      '--host <url>',
      'the server: Ollama, or an OpenAI-compatible one (vLLM, llama-server, SGLang, LM Studio, LiteLLM; a /v1 URL is taken as such) (default: $OLLAMA_HOST, config `host`, or http://127.0.0.1:11434)',
    )
    .addOption(
      new Option(
        '--api <api>',
        'the protocol the host speaks, instead of finding it out (config `api`; else /api/version means Ollama, /v1/models OpenAI, remembered per host; the default host and $OLLAMA_HOST are Ollama, unasked)',
      ).choices(['ollama', 'openai']),
    )
    .option(
      '-c, --config <file>',
      'config file (default: $OCHAT_CONFIG, else $XDG_CONFIG_HOME/ochat/config.yml)',
      nonEmptyPath,
    )
    .option('-s, --system <text>', 'system prompt')
    .option(
      '--num-ctx <n>',
      "context window in tokens (overrides config, the Modelfile, and an OpenAI-compatible server's published window)",
      positiveInteger,
    )
    .argument('[message...]', 'start the chat with this first message (with -p: the prompt)')
    .option(
      '-p, --print [prompt]',
      'one-shot: send the prompt (and piped stdin, at most 8 MB; "-" for stdin alone), print the reply, exit',
    )
    .option('-y, --yes', 'one-shot: run tools that ask for confirmation without asking')
    .option(
      '-r, --resume [id|name]',
      "continue a saved session (no argument: pick one of this directory's sessions)",
    )
    .option('--continue', 'continue the newest session of this directory, unasked')
    .option('--list-sessions', 'list the saved sessions and exit')
    .addHelpText(
      'after',
      `
Examples:
  ochat -m llama3.2                 chat interactively
  ochat "why is the sky blue?"      chat, starting with this message
  ochat -p "explain this" < err.log one-shot, reading stdin
  git diff | ochat -p -             one-shot, the prompt from stdin
  ochat -r                          pick one of this directory's sessions to continue
  ochat --list-sessions             list the saved sessions
                                    (kept in $XDG_DATA_HOME/ochat/sessions)
  OLLAMA_HOST=gpu-box:11434 ochat   use another server
  ochat --host http://gpu:8000/v1   an OpenAI-compatible server (vLLM, llama-server, …);
                                    its API key from $OCHAT_API_KEY or $OPENAI_API_KEY
                                    (config api_key_env names another; headers: for a
                                    gateway); its window from the server; /pull, /ps,
                                    /unload and keep_alive are Ollama's only
  ochat eval compaction -m llama3.2 --summarizer-model qwen2.5:0.5b
                                    score what compaction keeps with your models
                                    (ochat eval --help)

In the chat, /help lists the slash commands; !command runs a shell command and its output
goes with your next message; /recall TEXT searches the whole conversation, compacted
messages included (a model with tools gets the same search as the recall tool).`,
    )
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
}

/**
 * The command line read by commander: flags and the words after them. --help, --version and usage
 * errors (already printed) end in `CommandLineExit`.
 */
export function parseCommandLine(argv: string[]): { flags: CliFlags; words: string } {
  const program = buildProgram();
  try {
    program.parse(argv);
  } catch (error) {
    if (error instanceof CommanderError) throw new CommandLineExit(error.exitCode, error.message);
    throw error;
  }
  return { flags: program.opts<CliFlags>(), words: program.args.join(' ').trim() };
}

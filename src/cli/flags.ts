/** The command-line flags, as commander parses them. */
export interface CliFlags {
  model?: string;
  host?: string;
  /** `--api`: the protocol the host speaks, instead of finding it out. */
  api?: 'ollama' | 'openai';
  config?: string;
  system?: string;
  numCtx?: number;
  print?: string | boolean;
  yes?: boolean;
  /** `-r [id|name]`: true when given without an argument (this directory's newest session). */
  resume?: string | true;
  /** `--continue`: the same as `-r` without an argument. */
  continue?: boolean;
  listSessions?: boolean;
}

/** The command line asked to end the run: --help or --version (code 0), or a usage error already printed. */
export class CommandLineExit extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'CommandLineExit';
  }
}

import { isAbsolute, relative, sep } from 'node:path';
import type { InstructionsView } from '../../commands/command-host.js';
import {
  renderInstructionsSection,
  type ShownInstructionFile,
} from '../../compaction/instructions-section.js';
import { formatTokens } from '../../conversation/format-tokens.js';
import { estimateTokens } from '../../conversation/token-estimate.js';
import { readInstructionFiles } from '../../files/instruction-files.js';
import { configDir, displayPath, expandHome } from '../../platform/xdg-paths.js';
import type { ScreenLog } from '../state/screen-log.js';
import type { ModelSettings } from './model-settings.js';
import type { RequestBuilder } from './request-builder.js';

/** Instruction files taking more than this share of num_ctx are said to (they are still sent whole). */
export const INSTRUCTIONS_WARN_SHARE = 0.25;

/** What the instruction files are read with. */
export interface ProjectInstructionsDeps {
  /** `instructions_files` ([] reads none). */
  names: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  settings: ModelSettings;
  requests: RequestBuilder;
  screen: ScreenLog;
}

/**
 * The user's instruction files (AGENTS.md): read once as the chat starts, put in the system
 * message of every request as a section of their own (ModelSettings), counted like it, and shown
 * by `/instructions`. When they take more than a quarter of the window, the user is told (once
 * per window) rather than anything being cut.
 */
export class ProjectInstructions {
  #files: ShownInstructionFile[] = [];
  #problems: string[] = [];
  /** The window the size was last told for. */
  #toldFor: number | undefined;

  constructor(private readonly deps: ProjectInstructionsDeps) {
    deps.settings.listen((setting) => {
      if (setting === 'num_ctx') this.checkShare();
    });
  }

  /** Reads the files; problems (a file unreadable, too large) are told, the chat goes on without it. */
  async load(): Promise<void> {
    const { names, cwd, env, settings, screen } = this.deps;
    if (!names.length) return;
    const home = configDir(env);
    const found = await readInstructionFiles({
      cwd,
      names: names.map((name) => expandHome(name, env)),
      configDir: home,
    });
    this.#files = found.files.map((file) => ({ shown: this.shown(file.path), content: file.content }));
    this.#problems = found.problems;
    settings.setInstructions(renderInstructionsSection(this.#files));
    for (const problem of found.problems) screen.notice('warning', `Instructions file ${problem}.`);
    this.checkShare();
  }

  /** What `/instructions` shows: each file with its estimated tokens. */
  view(): InstructionsView {
    const { charsPerToken } = this.deps.requests.meter;
    return {
      names: this.deps.names,
      problems: this.#problems,
      files: this.#files.map((file) => ({ ...file, tokens: estimateTokens(file.content, charsPerToken) })),
    };
  }

  /** A path as the user reads it: relative when it is the working directory's or above it, else with `~`. */
  private shown(path: string): string {
    const { cwd, env } = this.deps;
    const rel = relative(cwd, path);
    const above = rel.split(sep).every((part, i, parts) => part === '..' || i === parts.length - 1);
    return above && !isAbsolute(rel) ? rel : displayPath(path, env);
  }

  /** Tells once per window when the section takes more than its share of it. */
  private checkShare(): void {
    const { settings, requests, screen } = this.deps;
    const numCtx = settings.connected?.numCtx;
    if (numCtx === undefined || numCtx === this.#toldFor) return;
    const tokens = requests.instructionTokens();
    if (tokens <= INSTRUCTIONS_WARN_SHARE * numCtx) return;
    this.#toldFor = numCtx;
    const percent = Math.round((tokens / numCtx) * 100);
    const which = this.#files.map((file) => file.shown).join(', ');
    screen.notice(
      'warning',
      `The instruction files (${which}) take ~${formatTokens(tokens)} tokens, ${percent}% of the ${formatTokens(numCtx)} window: they are sent whole with every request, leaving less room for the conversation. A larger window (/set num_ctx) or shorter files (instructions_files in the config) would help.`,
    );
  }
}

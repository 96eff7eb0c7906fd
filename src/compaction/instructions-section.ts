/** Opens the section of the system message that carries the user's instruction files (AGENTS.md). */
export const INSTRUCTIONS_HEADER =
  "[Instructions from the user's instruction files (AGENTS.md), the most general first: follow them]";
/** Closes it. */
export const INSTRUCTIONS_FOOTER = '[End of the instructions]';

/** One file as the model is shown it: where it is (as the user writes it) and what it says. */
export interface ShownInstructionFile {
  shown: string;
  content: string;
}

/**
 * The instruction files as one delimited section of the system message (after the system prompt,
 * before any summary): each file under a line naming it. Undefined when there are none. The one
 * place defining the format; compaction never touches it, like the system prompt.
 */
export function renderInstructionsSection(files: readonly ShownInstructionFile[]): string | undefined {
  if (!files.length) return undefined;
  const parts = files.map((file) => `From ${file.shown}:\n${file.content.trim()}`);
  return `${INSTRUCTIONS_HEADER}\n${parts.join('\n\n')}\n${INSTRUCTIONS_FOOTER}`;
}

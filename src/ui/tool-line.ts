import { showControlCharacters } from '../text/sanitize.js';

/**
 * A tool call's summary as its line on screen shows it, after `⚙`/`✗`, the tool's name and its
 * argument: without the summary's own ✅/❌ (the line's marker says it) and, when the summary
 * starts with that argument, without the repeat — `✗ run_command touch a — declined by the user`,
 * not `✗ run_command touch a — ❌ touch a (declined by the user)`. The model's tool log keeps the
 * whole summary.
 */
export function shownToolSummary(keyArgument: string, summary: string): string {
  // ✅ or ❌, escaped: the bundles stay ASCII (scripts/build.mjs).
  let text = summary.replace(/^(?:\u2705|\u274C)\s*/u, '');
  // A command's summary shows its control characters, as its confirmation did.
  const repeated = [keyArgument, showControlCharacters(keyArgument)].find(
    (form) => form && text.startsWith(form),
  );
  if (repeated) {
    const rest = text.slice(repeated.length).trim();
    if (rest.startsWith('(') && rest.endsWith(')')) text = rest.slice(1, -1);
  }
  return text || summary;
}

/** A tool call's line as plain text (line mode, a one-shot's stderr): `✗ run_command rm a — declined by the user`. */
export function toolLine(item: { ok: boolean; name: string; keyArgument: string; summary: string }): string {
  const head = [item.name, item.keyArgument].filter(Boolean).join(' ');
  // A malformed call has no name to put the summary after.
  return `${item.ok ? '⚙' : '✗'} ${head ? `${head} — ` : ''}${shownToolSummary(item.keyArgument, item.summary)}`;
}

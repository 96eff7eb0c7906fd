import type { SlashCommand } from '../command.js';

/** The fenced code blocks of a Markdown text, in order: language (may be '') and code. */
export function codeBlocks(markdown: string): { language: string; code: string }[] {
  const blocks: { language: string; code: string }[] = [];
  const fence = /^(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*\n([\s\S]*?)^\1[ \t]*$/gm;
  for (let match = fence.exec(markdown); match; match = fence.exec(markdown)) {
    blocks.push({ language: match[2] ?? '', code: (match[3] ?? '').replace(/\n$/, '') });
  }
  return blocks;
}

/** `/copy [all]`: the last reply's last code block (or the whole reply) to the clipboard, through the terminal. */
export const copyCommand: SlashCommand = {
  name: 'copy',
  summary: "Copy the last reply's code block (or, with all, the whole reply) to the clipboard",
  usage: '/copy [all]',
  runsWhileBusy: true,
  run(host, args) {
    const reply = host.screen.lastReply;
    if (reply === undefined) {
      host.screen.notice('info', 'Nothing to copy yet: no reply so far.');
      return;
    }
    const block = args.trim() === 'all' ? undefined : codeBlocks(reply).at(-1);
    const text = block ? block.code : reply;
    if (!host.screen.copy(text)) {
      host.screen.notice('error', 'Copying needs the interactive chat in a terminal.');
      return;
    }
    const lines = text.split('\n').length;
    const what = block
      ? `the last code block${block.language ? ` (${block.language})` : ''}`
      : 'the last reply';
    host.screen.notice(
      'success',
      `Copied ${what}, ${lines} line${lines === 1 ? '' : 's'}, to the clipboard (through the terminal: OSC 52, which some terminals ask to allow).`,
    );
  },
};

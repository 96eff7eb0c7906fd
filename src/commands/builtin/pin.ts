import type { SlashCommand } from '../command.js';

/** `/pin [text]`: keeps a note verbatim in every request, through every compaction; alone, pins your last message. */
export const pinCommand: SlashCommand = {
  name: 'pin',
  summary: 'Keep a note verbatim in every request, through every compaction (alone: your last message)',
  usage: '/pin [text]',
  run(host, args) {
    const text = args.trim() || host.model.lastUserText()?.trim();
    if (!text) {
      host.screen.notice('error', 'Nothing to pin: /pin TEXT, or send a message first and /pin it.');
      return;
    }
    const refused = host.model.pin(text);
    if (refused) {
      host.screen.notice('error', refused);
      return;
    }
    host.screen.notice(
      'success',
      `Pinned as #${host.model.pins.length}: the model sees it in every request (/pins lists them).`,
    );
  },
};

/** `/pins`: the pinned notes, numbered as `/unpin` takes them. */
export const pinsCommand: SlashCommand = {
  name: 'pins',
  summary: 'List the pinned notes',
  usage: '/pins',
  runsWhileBusy: true,
  run(host) {
    const { pins } = host.model;
    if (!pins.length) {
      host.screen.show('No pinned notes. /pin TEXT keeps one in every request.');
      return;
    }
    host.screen.show(
      ['Pinned notes (in every request):', ...pins.map((pin, i) => `  ${i + 1}. ${pin}`)].join('\n'),
    );
  },
};

/** `/unpin N`: removes pinned note N. */
export const unpinCommand: SlashCommand = {
  name: 'unpin',
  summary: 'Remove a pinned note by its number (/pins)',
  usage: '/unpin N',
  run(host, args) {
    const n = Number(args.trim());
    if (!host.model.unpin(n)) {
      const count = host.model.pins.length;
      host.screen.notice(
        'error',
        count
          ? `No pinned note ${args.trim() || '(none given)'}: /unpin takes 1–${count} (/pins lists them).`
          : 'No pinned notes.',
      );
      return;
    }
    host.screen.notice('success', `Unpinned note ${n}.`);
  },
};

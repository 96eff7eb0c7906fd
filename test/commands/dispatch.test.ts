import { describe, expect, it } from 'vitest';
import { BUILTIN_COMMANDS } from '../../src/commands/builtin-commands.js';
import { CommandUsageError, type SlashCommand } from '../../src/commands/command.js';
import { dispatchCommand, findCommand, parseSlashCommand } from '../../src/commands/dispatch.js';
import { FakeHost } from '../support/fake-command-host.js';

const usageFailing: SlashCommand = {
  name: 'pick',
  summary: 'Picks',
  usage: '/pick <a|b>',
  run() {
    throw new CommandUsageError('Expected a or b.');
  },
};

const crashing: SlashCommand = {
  name: 'boom',
  aliases: ['kaboom'],
  summary: 'Crashes',
  usage: '/boom',
  async run() {
    throw new Error('disk on fire');
  },
};

describe('parseSlashCommand', () => {
  it('splits the name (lower-cased) from the trimmed argument text', () => {
    expect(parseSlashCommand('  /Compact   keep the paths  ')).toEqual({
      name: 'compact',
      args: 'keep the paths',
    });
    expect(parseSlashCommand('/system line one\nline two')).toEqual({
      name: 'system',
      args: 'line one\nline two',
    });
    expect(parseSlashCommand('hello')).toBeUndefined();
  });
});

describe('findCommand', () => {
  it('finds by name and by alias', () => {
    expect(findCommand(BUILTIN_COMMANDS, 'quit')?.name).toBe('quit');
    expect(findCommand(BUILTIN_COMMANDS, 'bye')?.name).toBe('quit');
    expect(findCommand(BUILTIN_COMMANDS, 'new')?.name).toBe('clear');
    expect(findCommand(BUILTIN_COMMANDS, 'nope')).toBeUndefined();
  });
});

describe('dispatchCommand', () => {
  it('runs the command with its arguments', async () => {
    const host = new FakeHost();
    expect(await dispatchCommand(BUILTIN_COMMANDS, host, '/compact keep file names')).toBe(true);
    expect(host.compactCalls).toEqual(['keep file names']);
    expect(host.notices).toEqual([]);
  });

  it('runs a command by its alias', async () => {
    const host = new FakeHost();
    await dispatchCommand(BUILTIN_COMMANDS, host, '/exit');
    expect(host.exited).toBe(1);
  });

  it('answers an unknown command with a suggestion of the nearest one', async () => {
    const host = new FakeHost();
    expect(await dispatchCommand(BUILTIN_COMMANDS, host, '/compcat')).toBe(false);
    expect(host.notices).toEqual([
      { level: 'error', text: 'Unknown command /compcat. Did you mean /compact? /help lists the commands.' },
    ]);
  });

  it('answers an unknown command far from every name without a suggestion', async () => {
    const host = new FakeHost();
    await dispatchCommand(BUILTIN_COMMANDS, host, '/xyzzyplugh');
    expect(host.notices).toEqual([
      { level: 'error', text: 'Unknown command /xyzzyplugh. /help lists the commands.' },
    ]);
  });

  it('answers a lone slash with a hint instead of running anything', async () => {
    const host = new FakeHost();
    await dispatchCommand(BUILTIN_COMMANDS, host, '/');
    expect(host.notices).toEqual([
      { level: 'error', text: 'Type a command after the slash. /help lists them.' },
    ]);
    expect(host.shown).toEqual([]);
  });

  it('shows a usage error followed by the usage', async () => {
    const host = new FakeHost();
    await dispatchCommand([usageFailing], host, '/pick c');
    expect(host.notices).toEqual([{ level: 'error', text: 'Expected a or b. Usage: /pick <a|b>' }]);
  });

  it('ends a usage message that is not a sentence with a period before the usage', async () => {
    const host = new FakeHost();
    await dispatchCommand(BUILTIN_COMMANDS, host, '/set temperature warm');
    expect(host.notices).toHaveLength(1);
    expect(host.notices[0].level).toBe('error');
    expect(host.notices[0].text).toMatch(/^temperature: .*"warm"\. Usage: \/set <option> <value>$/);
  });

  it('turns a throwing command into a one-line error instead of throwing', async () => {
    const host = new FakeHost();
    await expect(dispatchCommand([crashing], host, '/kaboom now')).resolves.toBe(false);
    expect(host.notices).toEqual([{ level: 'error', text: '/boom failed: disk on fire' }]);
  });

  it('turns a non-Error throw into a one-line error as well', async () => {
    const host = new FakeHost();
    const odd: SlashCommand = {
      ...crashing,
      run() {
        throw 'just a string';
      },
    };
    await dispatchCommand([odd], host, '/boom');
    expect(host.notices).toEqual([{ level: 'error', text: '/boom failed: just a string' }]);
  });
});

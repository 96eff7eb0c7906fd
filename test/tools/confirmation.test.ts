import { describe, expect, it } from 'vitest';
import {
  type Approval,
  autoApprove,
  createConfirmationPolicy,
  nobodyToAsk,
  wholeToolApproval,
} from '../../src/tools/confirmation.js';
import { makeContext } from './temp-sandbox.js';

const ctx = makeContext('/tmp');
const npmTest: Approval = {
  tool: 'run_command',
  scope: 'npm test …',
  covers: (args) => String(args.command).startsWith('npm test'),
};

describe('createConfirmationPolicy', () => {
  it('asks for listed tools until an approval covers the call', () => {
    const policy = createConfirmationPolicy(['write_file', 'run_command']);
    expect(policy.needsConfirmation('run_command', { command: 'npm test' }, ctx)).toBe(true);
    expect(policy.needsConfirmation('read_file', { path: 'a' }, ctx)).toBe(false);
    const { approve } = policy; // detached use must work
    approve(npmTest);
    expect(policy.needsConfirmation('run_command', { command: 'npm test -- --watch' }, ctx)).toBe(false);
    expect(policy.needsConfirmation('run_command', { command: 'touch out/danger.txt' }, ctx)).toBe(true);
    // A scoped approval leaves the tool asking first in general.
    expect(policy.asksFirst('run_command')).toBe(true);
    expect(policy.needsConfirmation('write_file', { command: 'npm test' }, ctx)).toBe(true);
  });

  it('a whole-tool approval stops every question for that tool', () => {
    const policy = createConfirmationPolicy(['write_file', 'get_time']);
    policy.approve(wholeToolApproval('get_time'));
    expect(policy.needsConfirmation('get_time', {}, ctx)).toBe(false);
    expect(policy.asksFirst('get_time')).toBe(false);
    expect(policy.asksFirst('write_file')).toBe(true);
  });

  it('lists approvals once each, and revokes one or all', () => {
    const policy = createConfirmationPolicy(['run_command', 'get_time']);
    policy.approve(npmTest);
    policy.approve({ ...npmTest, covers: () => true }); // the same scope again
    policy.approve(wholeToolApproval('get_time'));
    expect(policy.approvals().map((a) => `${a.tool} ${a.scope}`)).toEqual([
      'run_command npm test …',
      'get_time ',
    ]);
    expect(policy.revoke(3)).toEqual([]);
    expect(policy.revoke(0)).toEqual([]);
    expect(policy.revoke(1).map((a) => a.scope)).toEqual(['npm test …']);
    expect(policy.needsConfirmation('run_command', { command: 'npm test' }, ctx)).toBe(true);
    policy.approve(npmTest);
    expect(policy.revoke('all')).toHaveLength(2);
    expect(policy.approvals()).toEqual([]);
    expect(policy.asksFirst('get_time')).toBe(true);
  });

  it('an approval whose check throws covers nothing', () => {
    const policy = createConfirmationPolicy(['run_command']);
    policy.approve({
      tool: 'run_command',
      scope: 'x',
      covers: () => {
        throw new Error('boom');
      },
    });
    expect(policy.needsConfirmation('run_command', { command: 'x' }, ctx)).toBe(true);
  });

  it('keeps each policy separate', () => {
    const a = createConfirmationPolicy(['run_command']);
    const b = createConfirmationPolicy(['run_command']);
    a.approve(wholeToolApproval('run_command'));
    expect(b.needsConfirmation('run_command', { command: 'ls' }, ctx)).toBe(true);
  });

  it('has confirmers for one-shot mode', async () => {
    const request = { tool: 'run_command', args: { command: 'ls' }, keyArgument: 'ls', approval: null };
    expect(await autoApprove(request)).toEqual({ kind: 'yes' });
    expect(await nobodyToAsk(request)).toEqual({ kind: 'unasked' });
  });
});

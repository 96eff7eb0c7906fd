import { describe, expect, it } from 'vitest';
import { autoApprove, autoDecline, createConfirmationPolicy } from '../../src/tools/confirmation.js';

describe('createConfirmationPolicy', () => {
  it('asks for listed tools until one is allowed "always"', () => {
    const policy = createConfirmationPolicy(['write_file', 'run_command']);
    expect(policy.needsConfirmation('run_command')).toBe(true);
    expect(policy.needsConfirmation('read_file')).toBe(false);
    const { allowAlways } = policy; // detached use must work
    allowAlways('run_command');
    expect(policy.needsConfirmation('run_command')).toBe(false);
    expect(policy.needsConfirmation('write_file')).toBe(true);
  });

  it('keeps each policy separate', () => {
    const a = createConfirmationPolicy(['run_command']);
    const b = createConfirmationPolicy(['run_command']);
    a.allowAlways('run_command');
    expect(b.needsConfirmation('run_command')).toBe(true);
  });

  it('has confirmers for one-shot mode', async () => {
    const request = { tool: 'run_command', args: { command: 'ls' }, keyArgument: 'ls' };
    expect(await autoApprove(request)).toEqual({ kind: 'yes' });
    expect(await autoDecline(request)).toEqual({ kind: 'no' });
  });
});

import { describe, expect, it } from 'vitest';
import { abortable } from '../../src/async/abortable.js';

describe('abortable', () => {
  it('settles like the work when nothing aborts', async () => {
    await expect(abortable(Promise.resolve(7), new AbortController().signal)).resolves.toBe(7);
    await expect(abortable(Promise.reject(new Error('no')), undefined)).rejects.toThrow('no');
  });

  it('rejects with the reason at the abort, though the work never settles', async () => {
    const controller = new AbortController();
    const pending = abortable(new Promise<never>(() => {}), controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });

  it('rejects at once for a signal already aborted, and ignores the work settling later', async () => {
    const controller = new AbortController();
    controller.abort(new Error('late'));
    let fail!: (error: Error) => void;
    const work = new Promise<never>((_, reject) => {
      fail = reject;
    });
    const pending = abortable(work, controller.signal);
    fail(new Error('ignored'));
    await expect(pending).rejects.toThrow('late');
  });
});

/** `/pull`, `/ps`, `/unload` and `/set keep_alive` against a recording host. */
import { describe, expect, it } from 'vitest';
import { BUILTIN_COMMANDS } from '../../src/commands/builtin-commands.js';
import { dispatchCommand } from '../../src/commands/dispatch.js';
import { FakeHost } from '../support/fake-command-host.js';

async function run(line: string, host = new FakeHost()): Promise<FakeHost> {
  await dispatchCommand(BUILTIN_COMMANDS, host, line);
  return host;
}

describe('model lifecycle commands', () => {
  it('/pull, /ps and /unload reach the model part of the host', async () => {
    const host = await run('/pull tiny');
    await run('/ps', host);
    await run('/unload', host);
    expect(host.lifecycleCalls).toEqual(['pull tiny', 'ps', 'unload']);
  });

  it('refuses a /pull without one name, and arguments to /ps and /unload', async () => {
    for (const line of ['/pull', '/pull a b', '/ps now', '/unload all']) {
      const host = await run(line);
      expect(host.lifecycleCalls, line).toEqual([]);
      expect(host.notices.at(-1)?.level, line).toBe('error');
    }
  });
});

describe('/set keep_alive', () => {
  it('takes the forms Ollama accepts: a duration, seconds, -1 forever, default', async () => {
    const host = await run('/set keep_alive 30m');
    expect(host.options.keepAlive).toBe('30m');
    expect(host.notices.at(-1)).toEqual({ level: 'success', text: 'keep_alive = "30m" (30m)' });
    await run('/set keep_alive 300', host);
    expect(host.options.keepAlive).toBe(300);
    await run('/set keep_alive -1', host);
    expect(host.notices.at(-1)?.text).toBe('keep_alive = -1 (forever)');
    await run('/set keep_alive default', host);
    expect(host.options.keepAlive).toBeUndefined();
  });

  it('refuses what Ollama would refuse, keeping the value in force', async () => {
    const host = new FakeHost();
    host.options.keepAlive = '5m';
    await run('/set keep_alive 5 minutes', host);
    expect(host.options.keepAlive).toBe('5m');
    expect(host.notices.at(-1)?.text).toMatch(/keep_alive must be a duration such as 30m or 2h/);
  });

  it('is listed by /set among what is in force', async () => {
    const host = new FakeHost();
    host.options.keepAlive = '2h';
    await run('/set', host);
    expect(host.shown.at(-1)).toMatch(/keep_alive\s+"2h"/);
  });
});

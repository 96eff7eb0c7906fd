import { failureLine } from '../failure-line.js';
import type { Tool } from '../tool.js';

/** `get_time` takes no arguments. */
export type GetTimeArgs = Record<string, never>;

/** Tells the model the current date and time (UTC and the machine's local zone). */
export const getTimeTool: Tool<GetTimeArgs> = {
  name: 'get_time',
  description: 'Get the current date and time.',
  parameters: { type: 'object', properties: {} },
  keyArgument: () => '',
  async run(_args, ctx) {
    const now = ctx.now();
    const utc = now.toISOString();
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const output = `${utc.slice(0, 19).replace('T', ' ')} UTC (${utc}); local time: ${localTime(now)} (${zone})`;
    return { ok: true, output, details: { iso: utc } };
  },
  summaryLine(_args, outcome) {
    if (!outcome.ok) return failureLine('time', outcome);
    const iso = String(outcome.details?.iso);
    return `time ${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  },
};

/** `2026-12-02 15:03:05 +01:00` in the machine's zone. */
function localTime(date: Date): string {
  const offsetMinutes = -date.getTimezoneOffset();
  const local = new Date(date.getTime() + offsetMinutes * 60_000).toISOString();
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${local.slice(0, 19).replace('T', ' ')} ${offset}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * When something happened, for a person, in local time: "just now", "3 min ago" within the hour,
 * "today at 14:02", "yesterday at 09:15", "on 2 Dec at 14:02", and the year when it is not this
 * one. A time that cannot be read is returned as given.
 */
export function formatWhen(at: string | Date, now: Date = new Date()): string {
  const date = at instanceof Date ? at : new Date(at);
  if (Number.isNaN(date.getTime())) return String(at);
  const ago = now.getTime() - date.getTime();
  if (ago >= 0 && ago < MINUTE_MS) return 'just now';
  if (ago >= 0 && ago < HOUR_MS) return `${Math.floor(ago / MINUTE_MS)} min ago`;
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  if (sameDay(date, now)) return `today at ${time}`;
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (sameDay(date, yesterday)) return `yesterday at ${time}`;
  const year = date.getFullYear() === now.getFullYear() ? '' : ` ${date.getFullYear()}`;
  return `on ${date.getDate()} ${MONTHS[date.getMonth()]}${year} at ${time}`;
}

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

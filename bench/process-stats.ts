import { readFileSync } from 'node:fs';

const CLOCK_TICKS_PER_SECOND = 100; // Linux USER_HZ

/** CPU time (user + system) a process has used so far, in milliseconds, from /proc. */
export function cpuTimeMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name; utime and stime are the 12th and 13th of those.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Peak resident memory of a process so far (VmHWM), in MB. */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** The median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The median of a figure's runs, with their least and most, each rounded by `round`. */
export function medianSpread(
  values: number[],
  round: (n: number) => number,
): { value: number; spread: { min: number; max: number; runs: number } } {
  return {
    value: round(median(values)),
    spread: { min: round(Math.min(...values)), max: round(Math.max(...values)), runs: values.length },
  };
}

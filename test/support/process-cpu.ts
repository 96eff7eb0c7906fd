import { readFileSync } from 'node:fs';

/** /proc counts CPU time in USER_HZ ticks, 100 a second on every Linux. */
const MS_PER_TICK = 10;

/**
 * The CPU time a process has used so far, user and system, in ms (Linux). A latency test reads
 * this around a key press: the app's own work until the key took effect is the same beside a CPU
 * hog, while the wall time also counts the wait for a core, which is the machine's, not the app's.
 */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
  return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
}

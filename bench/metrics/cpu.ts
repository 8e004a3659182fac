/**
 * CPU time of a server process (all its threads), from /proc/<pid>/stat (Linux): how busy the server was
 * during a window, which stays meaningful when other processes share the cores and slow every rate down.
 */
import { readFileSync } from 'node:fs';

/** USER_HZ: the unit of utime/stime in /proc/<pid>/stat, 100 on every mainstream Linux. */
const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU seconds the process has used so far; NaN when it cannot be read. */
export function cpuSeconds(pid: number): number {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return Number.NaN;
  }
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / CLOCK_TICKS_PER_SECOND;
}

/** The probes every throughput metric takes: the server's CPU seconds over the window. */
export function serverProbes(pid: number): Record<string, () => number> {
  return { serverCpuSeconds: () => cpuSeconds(pid) };
}

/** Server CPU per operation (µs) and its busy share of one core over the window. */
export function cpuUse(
  deltas: Record<string, number>,
  completed: number,
  durationMs: number,
): { perOperationUs: number; coreShare: number } {
  const seconds = deltas.serverCpuSeconds ?? Number.NaN;
  return { perOperationUs: (seconds * 1e6) / completed, coreShare: seconds / (durationMs / 1000) };
}

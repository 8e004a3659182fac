/**
 * What /proc says about a server process (Linux): its resident memory and its CPU time. The servers are
 * separate processes, so this is the server alone, not the load generator.
 */
import { readFileSync } from 'node:fs';

export interface MemoryReading {
  /** Resident set size now (VmRSS), bytes. */
  rssBytes: number;
  /** Peak resident set size (VmHWM), bytes. */
  peakRssBytes: number;
  /** The anonymous part of the RSS (heap, stacks: RssAnon) and the file-backed part (code, mapped files such as LMDB's: RssFile). */
  rssAnonBytes: number;
  rssFileBytes: number;
}

/** VmRSS and VmHWM of a process from /proc/<pid>/status (Linux); undefined elsewhere or once it has exited. */
export function readMemory(pid: number): MemoryReading | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kib = (field: string) => {
    const m = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(text);
    return m ? Number(m[1]) * 1024 : Number.NaN;
  };
  return {
    rssBytes: kib('VmRSS'),
    peakRssBytes: kib('VmHWM'),
    rssAnonBytes: kib('RssAnon'),
    rssFileBytes: kib('RssFile'),
  };
}

/**
 * The anonymous resident memory of a process by where it comes from, read from /proc/<pid>/smaps (Linux):
 * V8's heap pages (its 256 KiB mappings, every isolate's), glibc's main heap (`[heap]`), and the rest (the
 * threads' malloc arenas and stacks, Wasm memories, buffers mapped on their own).
 */
export interface AnonymousParts {
  v8PagesBytes: number;
  mallocHeapBytes: number;
  otherBytes: number;
}

const V8_PAGE_BYTES = 256 * 1024;

/** The anonymous mappings of `pid` by kind (`256K`: V8's pages, `[heap]`, `[stack]`, or a size class), with
 * their resident bytes and count; undefined once the process has exited. */
export function readAnonymousMappings(
  pid: number,
): Map<string, { rssBytes: number; count: number }> | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return undefined;
  }
  const groups = new Map<string, { rssBytes: number; count: number }>();
  let kind = '';
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const size = Number.parseInt(head[2], 16) - Number.parseInt(head[1], 16);
      const name = head[3];
      kind = name.startsWith('/')
        ? ''
        : name ||
          (size === V8_PAGE_BYTES
            ? '256K'
            : size < 2 ** 20
              ? '<1M'
              : size < 64 * 2 ** 20
                ? '1-64M'
                : '>=64M');
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && kind !== '') {
      const g = groups.get(kind) ?? { rssBytes: 0, count: 0 };
      g.rssBytes += Number(rss[1]) * 1024;
      g.count++;
      groups.set(kind, g);
    }
  }
  return groups;
}

export function readAnonymousParts(pid: number): AnonymousParts | undefined {
  const groups = readAnonymousMappings(pid);
  if (!groups) return undefined;
  let total = 0;
  for (const g of groups.values()) total += g.rssBytes;
  const v8PagesBytes = groups.get('256K')?.rssBytes ?? 0;
  const mallocHeapBytes = groups.get('[heap]')?.rssBytes ?? 0;
  return { v8PagesBytes, mallocHeapBytes, otherBytes: total - v8PagesBytes - mallocHeapBytes };
}

/** USER_HZ: the unit of utime/stime in /proc/<pid>/stat, 100 on every mainstream Linux. */
const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU seconds the process (all its threads) has used so far; NaN when it cannot be read. */
export function cpuSeconds(pid: number): number {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return Number.NaN;
  }
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** The probe every throughput window takes: the server's CPU seconds, which stay meaningful on busy cores. */
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

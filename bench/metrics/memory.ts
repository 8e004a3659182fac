/**
 * Metric 4: resident memory of a server process, read from /proc/<pid>/status (Linux). The servers are
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

/**
 * How many bytes of a file this process holds resident through its memory maps: the `Rss` of every mapping
 * of the file in `/proc/self/smaps` (Linux). LMDB reads through a map of `data.mdb`, so this is the store's
 * part of the process's file-backed RSS (RssFile). Undefined where /proc is not there (macOS, Windows) or the
 * file is not mapped.
 *
 * Reading smaps costs a few milliseconds (the kernel walks the page tables of every mapping), so callers
 * check it now and then, not on every read.
 */
import { readFileSync } from 'node:fs';

export function residentFileBytes(file: string): number | undefined {
  let smaps: string;
  try {
    smaps = readFileSync('/proc/self/smaps', 'latin1');
  } catch {
    return undefined;
  }
  // Each mapping is a header line ending with the mapped file's path, then its fields, `Rss:` among them.
  const suffix = ` ${file}\n`;
  let total: number | undefined;
  for (let at = smaps.indexOf(suffix); at >= 0; at = smaps.indexOf(suffix, at + suffix.length)) {
    const rss = smaps.indexOf('\nRss:', at + suffix.length - 1);
    if (rss < 0) break;
    const end = smaps.indexOf('\n', rss + 1);
    const kib = Number.parseInt(smaps.slice(rss + 5, end).trim(), 10);
    if (Number.isFinite(kib)) total = (total ?? 0) + kib * 1024;
  }
  return total;
}

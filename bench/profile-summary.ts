/**
 * Reads a V8 `.cpuprofile` (node --cpu-prof) and lists the hottest functions by self time and, for the
 * project's own code, by total (inclusive) time. Also runnable alone:
 *   node --import tsx bench/profile-summary.ts <file.cpuprofile> [top]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface HotSpot {
  /** file:line function, the file relative to the repository when it is inside it. */
  where: string;
  selfMs: number;
  selfPercent: number;
  totalMs: number;
  totalPercent: number;
}

export interface ProfileSummary {
  file: string;
  /** What the profile covers, when it is not the process's whole life (e.g. the view-call window). */
  label?: string;
  sampledMs: number;
  /** Share of samples in which the process was idle (waiting on I/O). */
  idlePercent: number;
  bySelf: HotSpot[];
  /** The project's own functions (packages/) by inclusive time. */
  projectByTotal: HotSpot[];
}

/**
 * Cuts a profile to the samples taken between `startUs` and `endUs` (V8's profile clock: the machine's
 * monotonic clock, µs, as `process.hrtime` in any process) and writes it beside the original as
 * `<prefix>.<original name>`; returns its path, or undefined when no sample falls in the window.
 */
export function sliceProfile(
  file: string,
  startUs: number,
  endUs: number,
  prefix: string,
): string | undefined {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let t = profile.startTime;
  let last = startUs;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (t < startUs || t > endUs) continue;
    samples.push(profile.samples[i]);
    timeDeltas.push(t - last);
    last = t;
  }
  if (samples.length === 0) return undefined;
  const out = join(dirname(file), `${prefix}.${basename(file)}`);
  writeFileSync(out, JSON.stringify({ ...profile, startTime: startUs, endTime: endUs, samples, timeDeltas }));
  return out;
}

export function summarizeProfile(file: string, repoRoot: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const label = (n: ProfileNode) => {
    const { functionName, url, lineNumber } = n.callFrame;
    let path = url;
    if (url.startsWith('file://')) {
      try {
        path = relative(repoRoot, fileURLToPath(url));
      } catch {
        path = url;
      }
    }
    const name = functionName || '(anonymous)';
    if (!path) return name;
    // Code loaded through tsx is transformed: its positions are not the source's, so only the file is kept.
    return path.endsWith('.ts') ? `${path} ${name}` : `${path}:${lineNumber + 1} ${name}`;
  };

  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let sampled = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    sampled += us;
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') idle += us;
    const key = label(node);
    self.set(key, (self.get(key) ?? 0) + us);
    // Inclusive time: count each distinct function once per stack.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = label(byId.get(cur)!);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + us);
    }
  }
  const spot = (where: string): HotSpot => ({
    where,
    selfMs: (self.get(where) ?? 0) / 1000,
    selfPercent: (100 * (self.get(where) ?? 0)) / sampled,
    totalMs: (total.get(where) ?? 0) / 1000,
    totalPercent: (100 * (total.get(where) ?? 0)) / sampled,
  });
  const bySelf = [...self.entries()]
    .filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(program)') && !k.startsWith('(root)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k]) => spot(k));
  const projectByTotal = [...total.entries()]
    .filter(([k]) => k.startsWith('packages/'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k]) => spot(k));
  return { file, sampledMs: sampled / 1000, idlePercent: (100 * idle) / sampled, bySelf, projectByTotal };
}

export function formatProfileSummary(s: ProfileSummary): string {
  const row = (h: HotSpot) =>
    `  ${h.selfPercent.toFixed(1).padStart(5)}% self ${h.totalPercent.toFixed(1).padStart(5)}% total  ${h.where}`;
  return [
    `CPU profile${s.label ? ` of ${s.label}` : ''} ${s.file}: ${(s.sampledMs / 1000).toFixed(1)} s sampled, ${s.idlePercent.toFixed(1)}% idle`,
    ' hottest by self time:',
    ...s.bySelf.map(row),
    ' project functions by total time:',
    ...s.projectByTotal.map(row),
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: profile-summary.ts <file.cpuprofile> [top]');
    process.exit(2);
  }
  const root = fileURLToPath(new URL('..', import.meta.url));
  console.log(formatProfileSummary(summarizeProfile(file, root, Number(process.argv[3] ?? 15))));
}

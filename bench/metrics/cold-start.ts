/**
 * `cold` phase: spawn to the first answered JSON-RPC request, the median of `runs` fresh processes, beside the
 * floor every Node program pays: a bare `node -e 0`, spawn to exit. The three are interleaved (one of each per
 * round), so a change of the machine's load touches all of them alike.
 *
 * Shadebox: the launcher's command until its JSON ready line, then one `status` request on a fresh connection;
 * anvil: spawn until its first `eth_chainId` answer. Each process is stopped before the next. The RSS of each
 * just-started process is recorded on the way.
 */
import { spawn } from 'node:child_process';
import { type AnvilServer, startAnvil } from '../anvil.js';
import { median } from '../load.js';
import { readMemory } from '../proc.js';
import { probeOnce } from '../rpc.js';
import { type Launcher, startShadebox } from '../shadebox-node.js';

export interface StartResult {
  runs: number;
  /** Spawn to the first answer, ms, per run; and their median. */
  samplesMs: number[];
  medianMs: number;
  /** Median RSS of the process right after its first answer, bytes. */
  rssBytes: number;
}

export interface ColdStartResult {
  shadebox: StartResult | { error: string };
  anvil?: StartResult | { error: string };
  /** `node -e 0`, spawn to exit. */
  bareNode: StartResult;
}

/** Spawn to exit of `node -e 0` (this process's node), ms. */
export function bareNodeStart(): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore', env: {} });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(performance.now() - t0) : reject(new Error(`node -e 0 exited with ${code}`)),
    );
  });
}

async function shadeboxStart(launcher: Launcher) {
  const server = await startShadebox({ launcher, timeoutMs: 20_000 });
  try {
    await probeOnce(server.rpcUrl, 'status', []);
    const ms = performance.now() - server.process.spawnedAt;
    return { ms, rss: readMemory(server.pid)?.rssBytes ?? Number.NaN };
  } finally {
    await server.stop();
  }
}

async function anvilStart(path: string) {
  let server: AnvilServer | undefined;
  try {
    server = await startAnvil({ path, accounts: 32, timeoutMs: 20_000 });
    return { ms: server.readyMs, rss: readMemory(server.pid)?.rssBytes ?? Number.NaN };
  } finally {
    await server?.stop();
  }
}

export async function measureColdStarts(
  launcher: Launcher,
  anvilPath: string | undefined,
  runs: number,
): Promise<ColdStartResult> {
  const node: number[] = [];
  const sb: { ms: number; rss: number }[] = [];
  const ev: { ms: number; rss: number }[] = [];
  let sbError: string | undefined;
  let evError: string | undefined;
  for (let i = 0; i < runs; i++) {
    node.push(await bareNodeStart());
    if (!sbError)
      await shadeboxStart(launcher).then(
        (r) => sb.push(r),
        (e: Error) => (sbError = e.message),
      );
    if (anvilPath && !evError)
      await anvilStart(anvilPath).then(
        (r) => ev.push(r),
        (e: Error) => (evError = e.message),
      );
  }
  return {
    shadebox: sbError ? { error: sbError } : summarize(sb),
    anvil: anvilPath === undefined ? undefined : evError ? { error: evError } : summarize(ev),
    bareNode: summarize(node.map((ms) => ({ ms, rss: Number.NaN }))),
  };
}

export function summarize(samples: { ms: number; rss: number }[]): StartResult {
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    runs: samples.length,
    samplesMs: samples.map((s) => round(s.ms)),
    medianMs: round(median(samples.map((s) => s.ms))),
    rssBytes: median(samples.map((s) => s.rss)),
  };
}

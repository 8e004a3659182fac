/**
 * Metric 3: cold start to ready, the median of `runs` fresh processes.
 * Shadebox: spawn until its JSON ready line (then also until the first JSON-RPC answer);
 * anvil: spawn until its first JSON-RPC answer (`eth_chainId`). Each process is stopped before the next.
 * The resident memory of the idle, just-started process is recorded on the way.
 */
import { type AnvilServer, startAnvil } from '../anvil.js';
import { median } from '../load.js';
import { probeOnce } from '../rpc.js';
import { type Launcher, startShadebox } from '../shadebox-node.js';
import { readMemory } from './memory.js';

export interface ColdStartResult {
  runs: number;
  /** Spawn to ready line (Shadebox) / first RPC answer (anvil), ms, per run. */
  samplesMs: number[];
  medianMs: number;
  /** Spawn to the first JSON-RPC answer, ms, per run. */
  firstAnswerMs: number[];
  medianFirstAnswerMs: number;
  /** Median RSS of the idle process right after it was ready, bytes. */
  idleRssBytes: number;
}

export async function measureShadeboxColdStart(launcher: Launcher, runs: number): Promise<ColdStartResult> {
  const samples: number[] = [];
  const firstAnswer: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < runs; i++) {
    const server = await startShadebox({ launcher, timeoutMs: 20_000 });
    try {
      samples.push(server.readyMs);
      await probeOnce(server.rpcUrl, 'status', []);
      firstAnswer.push(performance.now() - server.process.spawnedAt);
      rss.push(readMemory(server.pid)?.rssBytes ?? Number.NaN);
    } finally {
      await server.stop();
    }
  }
  return summarize(samples, firstAnswer, rss);
}

export async function measureAnvilColdStart(
  path: string,
  accounts: number,
  runs: number,
): Promise<ColdStartResult> {
  const samples: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < runs; i++) {
    let server: AnvilServer | undefined;
    try {
      server = await startAnvil({ path, accounts, timeoutMs: 20_000 });
      samples.push(server.readyMs);
      rss.push(readMemory(server.pid)?.rssBytes ?? Number.NaN);
    } finally {
      await server?.stop();
    }
  }
  return summarize(samples, samples, rss);
}

function summarize(samples: number[], firstAnswer: number[], rss: number[]): ColdStartResult {
  return {
    runs: samples.length,
    samplesMs: samples.map(round),
    medianMs: round(median(samples)),
    firstAnswerMs: firstAnswer.map(round),
    medianFirstAnswerMs: round(median(firstAnswer)),
    idleRssBytes: median(rss),
  };
}

const round = (ms: number) => Math.round(ms * 10) / 10;

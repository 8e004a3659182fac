/**
 * Shadebox only: restart time of an archival node whose LMDB home holds a long chain (100,000 blocks).
 *
 * The home lives in bench/results/homes/ (gitignored) and is reused by later runs: when it is missing or
 * shorter than `blocks`, a node is started on it (`--home DIR --archival`) and `sandbox_produce_blocks` makes
 * the missing blocks, 5,000 per call (about 400 blocks/s: a few minutes for 100,000). The node is stopped,
 * then started `runs` times on the same home; each start is timed from spawn to its JSON ready line and to
 * its first JSON-RPC answer (`status`), and the medians are reported.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { median } from '../load.js';
import { PooledRpcClient } from '../rpc.js';
import { type Launcher, REPO_ROOT, startShadebox } from '../shadebox-node.js';
import { type HomeSize, homeSize } from './store-size.js';

export const RESTART_HOME = join(REPO_ROOT, 'bench', 'results', 'homes', 'restart-100k');

export interface RestartResult {
  archival: true;
  home: string;
  /** Head height of the home when it was restarted. */
  height: number;
  /** Time spent making blocks in this run (0 when the reused home was already long enough). */
  buildMs: number;
  reused: boolean;
  size: HomeSize;
  runs: number;
  readyMs: number[];
  firstAnswerMs: number[];
  medianReadyMs: number;
  medianFirstAnswerMs: number;
}

export async function measureRestart(
  launcher: Launcher,
  options: { blocks: number; runs: number; home?: string; progress?: (message: string) => void },
): Promise<RestartResult> {
  const home = options.home ?? RESTART_HOME;
  const existed = existsSync(join(home, 'genesis.json'));
  mkdirSync(home, { recursive: true });
  let buildMs = 0;
  let height: number;
  {
    const server = await startShadebox({ launcher, home, archival: true, timeoutMs: 120_000 });
    const client = new PooledRpcClient(server.rpcUrl, 1);
    try {
      height = await headHeight(client);
      const t0 = performance.now();
      while (height < options.blocks) {
        const count = Math.min(5000, options.blocks - height);
        height = (await client.call<{ block_height: number }>('sandbox_produce_blocks', { count }))
          .block_height;
        options.progress?.(`restart home: ${height} of ${options.blocks} blocks`);
      }
      buildMs = performance.now() - t0;
    } finally {
      await client.pool.destroy();
      await server.stop();
    }
  }
  const ready: number[] = [];
  const firstAnswer: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    const server = await startShadebox({ launcher, home, archival: true, timeoutMs: 120_000 });
    const client = new PooledRpcClient(server.rpcUrl, 1);
    try {
      ready.push(server.readyMs);
      height = await headHeight(client);
      firstAnswer.push(performance.now() - server.process.spawnedAt);
    } finally {
      await client.pool.destroy();
      await server.stop();
    }
  }
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    archival: true,
    home,
    height,
    buildMs: Math.round(buildMs),
    reused: existed,
    size: homeSize(home),
    runs: options.runs,
    readyMs: ready.map(round),
    firstAnswerMs: firstAnswer.map(round),
    medianReadyMs: round(median(ready)),
    medianFirstAnswerMs: round(median(firstAnswer)),
  };
}

async function headHeight(client: PooledRpcClient): Promise<number> {
  const status = await client.call<{ sync_info: { latest_block_height: number } }>('status', []);
  return status.sync_info.latest_block_height;
}

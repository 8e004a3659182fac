/**
 * The `near-sandbox` executable's start as the harnesses do it (`sandbox` phase), run by its path with this
 * process's environment: `near-sandbox --home DIR init` in a fresh directory, then `near-sandbox --home DIR run --rpc-addr 127.0.0.1:P`, until the first
 * `GET /status` answered 200 (near-sandbox-js's readiness check), polled every 5 ms. The median of `runs`,
 * each in a new home; every process is stopped (SIGTERM) before the next run. Each run is preceded by two bare
 * `node -e 0` starts one after the other (cold-start.ts): init and run are two Node starts, the floor.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, sleep } from '../load.js';
import { REPO_ROOT } from '../shadebox-node.js';
import { bareNodeStart } from './cold-start.js';

const BIN = join(REPO_ROOT, 'packages', 'cli', 'bin', 'near-sandbox.js');

export interface NearSandboxStartResult {
  runs: number;
  /** `init` spawned to the first answered `GET /status` of `run`, ms, per run. */
  samplesMs: number[];
  medianMs: number;
  /** `init` alone (spawn to exit), ms, per run. */
  initMs: number[];
  medianInitMs: number;
  /** Two `node -e 0` one after the other, ms, per run; and their median. */
  twoBareNodesMs: number[];
  medianTwoBareNodesMs: number;
}

function spawnSandbox(args: string[]): ChildProcess {
  const env = { ...process.env };
  delete env.SHADEBOX_FROM_SOURCE;
  delete env.NODE_OPTIONS;
  // By its path, as the harnesses run it (its first lines are for sh: see bin/near-sandbox.js).
  return spawn(BIN, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

export async function measureNearSandboxStart(
  runs: number,
  timeoutMs = 20_000,
): Promise<NearSandboxStartResult> {
  const samples: number[] = [];
  const inits: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < runs; i++) {
    bare.push((await bareNodeStart()) + (await bareNodeStart()));
    const home = await mkdtemp(join(tmpdir(), 'bench-near-sandbox-'));
    const port = await freePort();
    let run: ChildProcess | undefined;
    try {
      const t0 = performance.now();
      const init = spawnSandbox(['--home', home, 'init']);
      const code = await exited(init);
      if (code !== 0) throw new Error(`near-sandbox init exited with ${code}`);
      inits.push(performance.now() - t0);
      run = spawnSandbox(['--home', home, 'run', '--rpc-addr', `127.0.0.1:${port}`]);
      const url = `http://127.0.0.1:${port}/status`;
      for (;;) {
        const ok = await fetch(url).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
        if (run.exitCode !== null) throw new Error(`near-sandbox run exited with ${run.exitCode}`);
        if (performance.now() - t0 > timeoutMs)
          throw new Error(`no answer to GET /status within ${timeoutMs} ms`);
        await sleep(5);
      }
      samples.push(performance.now() - t0);
    } finally {
      if (run && run.exitCode === null) {
        run.kill('SIGTERM');
        await exited(run);
      }
      await rm(home, { recursive: true, force: true });
    }
  }
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    runs,
    samplesMs: samples.map(round),
    medianMs: round(median(samples)),
    initMs: inits.map(round),
    medianInitMs: round(median(inits)),
    twoBareNodesMs: bare.map(round),
    medianTwoBareNodesMs: round(median(bare)),
  };
}

/**
 * anvil (Foundry's local Ethereum node), the peer Shadebox is measured against.
 *
 * The binary is the one `shadebox up` runs, found by the CLI's locateAnvil: `ANVIL_BIN` when it is set (and
 * only that one), else the platform package `@foundry-rs/anvil-<platform>-<arch>` (an optional dependency),
 * else `anvil` on PATH. The benchmark also runs `anvil --version`, for the version its report names.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateAnvil as locateAnvilBinary } from '@shadebox/cli';
import { spawnTracked, type TrackedChild } from './processes.js';
import { PooledRpcClient } from './rpc.js';

export type AnvilLocation =
  | { ok: true; path: string; version: string; how: string }
  | { ok: false; reason: string };

/** The anvil `shadebox up` would run (@shadebox/cli's locateAnvil) and its version, which the report names. */
export function locateAnvil(): AnvilLocation {
  const location = locateAnvilBinary({ env: process.env });
  if (!location.found) return { ok: false, reason: `${location.reason} (${location.advice})` };
  const { path, how } = location;
  const run = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  if (run.status !== 0) {
    const stderr = run.stderr?.trim().slice(0, 200);
    const why = run.error?.message ?? `exit ${run.status}${stderr ? `: ${stderr}` : ''}`;
    return { ok: false, reason: `${path} (${how}) --version: ${why}` };
  }
  const version = /anvil Version: (\S+)/.exec(run.stdout)?.[1] ?? run.stdout.split('\n')[0].trim();
  return { ok: true, path, version, how };
}

export interface AnvilServer {
  rpcUrl: string;
  pid: number;
  /** Spawn until the first JSON-RPC answer, ms. */
  readyMs: number;
  process: TrackedChild;
  stop(): Promise<void>;
}

export interface StartAnvilOptions {
  path: string;
  /** Prefunded dev accounts (anvil's default is 10). */
  accounts: number;
  timeoutMs?: number;
  /** Turn off anvil's per-request log lines once it answers (they would only cost it stdout writes). */
  quietRequests?: boolean;
}

/**
 * Starts anvil on 127.0.0.1 with a free port (`--port 0`), automine (the default). Its home is a temporary
 * directory removed when it stops: anvil keeps the states of older blocks on disk under
 * `$HOME/.foundry/anvil/tmp` and leaves them there when it is stopped by a signal, hundreds of MB per
 * benchmark run.
 */
export async function startAnvil(options: StartAnvilOptions): Promise<AnvilServer> {
  const home = mkdtempSync(join(tmpdir(), 'shadebox-bench-anvil-'));
  const removeHome = () => rmSync(home, { recursive: true, force: true });
  // Also when the benchmark exits without stopping it (its children are killed on exit: processes.ts).
  process.once('exit', removeHome);
  const child = spawnTracked(
    options.path,
    ['--host', '127.0.0.1', '--port', '0', '--accounts', String(options.accounts)],
    { env: { ...process.env, HOME: home } },
  );
  const stop = async (graceMs?: number) => {
    try {
      await child.stop(graceMs);
    } finally {
      process.removeListener('exit', removeHome);
      removeHome();
    }
  };
  try {
    const { value: port } = await child.waitForLine((line) => {
      const m = /Listening on [^\s:]+:(\d+)/.exec(line);
      return m ? Number(m[1]) : undefined;
    }, options.timeoutMs ?? 30_000);
    const rpcUrl = `http://127.0.0.1:${port}`;
    const client = new PooledRpcClient(rpcUrl, 1);
    try {
      await client.call('eth_chainId', []);
      const readyMs = performance.now() - child.spawnedAt;
      if (options.quietRequests) await client.call('anvil_setLoggingEnabled', [false]);
      return { rpcUrl, pid: child.pid, readyMs, process: child, stop: () => stop() };
    } finally {
      await client.close();
    }
  } catch (error) {
    await stop(500);
    throw error;
  }
}

/**
 * anvil (Foundry's local Ethereum node), the peer Shadebox is measured against.
 *
 * Foundry publishes anvil on npm as a wrapper (`@foundry-rs/anvil`) whose binaries are the platform packages
 * `@foundry-rs/anvil-<platform>-<arch>` (`bin/anvil`). The repository takes the Linux x64 one directly, as
 * an optional dependency (the wrapper's postinstall does not run under npm 11), so the binary is located
 * here and checked with `anvil --version`: `ANVIL_BIN` if set, then the platform package of this machine,
 * then `anvil` on PATH.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawnTracked, type TrackedChild } from './processes.js';
import { PooledRpcClient } from './rpc.js';

const PLATFORM_ARCH: Record<string, string | undefined> = {
  'linux-x64': 'linux-amd64',
  'linux-arm64': 'linux-arm64',
  'darwin-x64': 'darwin-amd64',
  'darwin-arm64': 'darwin-arm64',
  'win32-x64': 'win32-amd64',
};

export type AnvilLocation =
  | { ok: true; path: string; version: string; how: string }
  | { ok: false; reason: string };

export function locateAnvil(): AnvilLocation {
  const candidates: Array<{ path: string; how: string }> = [];
  if (process.env.ANVIL_BIN) candidates.push({ path: process.env.ANVIL_BIN, how: 'ANVIL_BIN' });
  const suffix = PLATFORM_ARCH[`${process.platform}-${process.arch}`];
  if (suffix) {
    const pkg = `@foundry-rs/anvil-${suffix}`;
    try {
      const manifest = createRequire(import.meta.url).resolve(`${pkg}/package.json`);
      const exe = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
      candidates.push({ path: join(dirname(manifest), 'bin', exe), how: `npm package ${pkg}` });
    } catch {
      // not installed (optional dependency skipped); try PATH below
    }
  }
  candidates.push({ path: 'anvil', how: 'PATH' });

  const failures: string[] = [];
  for (const { path, how } of candidates) {
    if (path.includes('/') && !existsSync(path)) {
      failures.push(`${how}: ${path} missing`);
      continue;
    }
    const run = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000 });
    if (run.status === 0) {
      const version = /anvil Version: (\S+)/.exec(run.stdout)?.[1] ?? run.stdout.split('\n')[0].trim();
      return { ok: true, path, version, how };
    }
    failures.push(`${how}: ${run.error?.message ?? `exit ${run.status} ${run.stderr?.slice(0, 200)}`}`);
  }
  return { ok: false, reason: failures.join('; ') };
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

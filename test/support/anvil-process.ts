/**
 * anvil (Foundry's local EVM node) for a test: the binary of the npm platform package (an optional
 * dependency; `anvilBinary()` is undefined where it is not installed), started on a free port with a home of
 * its own (it writes under $HOME/.foundry), stopped and its home removed by `stop()`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

export function anvilBinary(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve('@foundry-rs/anvil-linux-amd64/package.json');
    const path = join(dirname(manifest), 'bin', 'anvil');
    return process.platform === 'linux' && process.arch === 'x64' && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

export interface AnvilProcess {
  rpcUrl: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startAnvilProcess(path: string): Promise<AnvilProcess> {
  const home = mkdtempSync(join(tmpdir(), 'shadebox-test-anvil-'));
  const child = spawn(path, ['--host', '127.0.0.1', '--port', '0', '--accounts', '1'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, HOME: home },
  });
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /Listening on [^\s:]+:(\d+)/.exec(line);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`anvil exited ${code} before listening`)));
  });
  return {
    rpcUrl: `http://127.0.0.1:${port}`,
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        });
      }
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** One Ethereum JSON-RPC call; an error answer throws. */
export async function ethRpc<T = string>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: unknown };
  if (body.error !== undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result as T;
}

/**
 * Support for test/node-kill9.test.ts: the real `shadebox node` CLI in a child process (from source, through
 * tsx with the `source` export condition, so it runs the code under test rather than a possibly stale build),
 * killed with SIGKILL and started again on the same home; plus a bounded JSON-RPC call.
 *
 * Every child is tracked; `killAllNodes()` (called from an `after` hook) SIGKILLs whatever is left.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI_MAIN = fileURLToPath(new URL('../packages/cli/src/main.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

/** How long a node may take to print its ready line (tsx compiles the sources on a cold cache). */
const READY_TIMEOUT_MS = 60_000;

export interface ReadyLine {
  event: 'ready';
  rpcUrl: string;
  chainId: string;
  home: string | null;
  accounts: Array<{ accountId: string; publicKey: string; secretKey: string }>;
}

const children = new Set<ChildProcess>();

/** SIGKILLs every node child still running (for `after` hooks). */
export function killAllNodes(): void {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
}

/** A `shadebox node --home <home> --rpc-port 0 --json` child process. */
export class NodeChild {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  /** Resolves with the exit code or signal once the process is gone. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the parsed ready line; rejects when the process exits first or on timeout. */
  readonly ready: Promise<ReadyLine>;

  constructor(home: string) {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.SHADEBOX_LOG;
    delete env.SHADEBOX_FROM_SOURCE;
    delete env.NODE_OPTIONS;
    this.child = spawn(
      process.execPath,
      // No dev accounts: the supply checks add up the accounts this test makes.
      [
        '--conditions=source',
        '--import',
        TSX,
        CLI_MAIN,
        'node',
        '--home',
        home,
        '--rpc-port',
        '0',
        '--accounts',
        '0',
        '--json',
      ],
      { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.add(this.child);
    this.exited = new Promise((resolve) => {
      this.child.once('close', (code, signal) => {
        children.delete(this.child);
        resolve({ code, signal });
      });
    });
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      // Keep the tail only: enough to explain a failure.
      this.stderr = (this.stderr + chunk).slice(-20_000);
    });
    this.ready = new Promise<ReadyLine>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        reject(new Error(`no ready line after ${READY_TIMEOUT_MS} ms\nstderr: ${this.stderr}`));
      }, READY_TIMEOUT_MS);
      this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        this.stdout += chunk;
        const end = this.stdout.indexOf('\n');
        if (end === -1) return;
        clearTimeout(timer);
        try {
          resolve(JSON.parse(this.stdout.slice(0, end)) as ReadyLine);
        } catch (error) {
          reject(error);
        }
      });
      void this.exited.then((exit) => {
        clearTimeout(timer);
        reject(new Error(`node exited (${exit.code ?? exit.signal}) before ready\nstderr: ${this.stderr}`));
      });
    });
    // A kill before the ready line is a normal outcome of some rounds: never an unhandled rejection.
    this.ready.catch(() => {});
  }

  /** SIGKILL, and wait until the process is gone. */
  async kill9(): Promise<void> {
    this.child.kill('SIGKILL');
    const exit = await this.exited;
    if (exit.signal !== 'SIGKILL' && exit.code === null) throw new Error(`unexpected exit ${exit.signal}`);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: RPC results are checked field by field by the test.
export type Json = any;

/** One JSON-RPC call, bounded in time; `{ result }` or `{ error }` as the node answered. Throws on no answer. */
export async function rpcRaw(
  url: string,
  method: string,
  params: unknown,
  timeoutMs = 30_000,
): Promise<{ result?: Json; error?: Json }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'kill9', method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body: Json = await response.json();
  return 'error' in body ? { error: body.error } : { result: body.result };
}

export async function rpc(url: string, method: string, params: unknown, timeoutMs?: number): Promise<Json> {
  const { result, error } = await rpcRaw(url, method, params, timeoutMs);
  if (error) throw new Error(`${method} ${JSON.stringify(params)}: ${JSON.stringify(error)}`);
  return result;
}

/** Runs `fn` over `items` with at most `limit` calls in flight. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

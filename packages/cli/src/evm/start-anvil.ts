/**
 * Starts anvil, the local EVM chain of `shadebox up`, and stops it. anvil runs behind a guard
 * (./spawn-guarded.ts) so that it never outlives the process that started it. Its chain lives in memory: its
 * HOME is a temporary folder, deleted when it stops, because anvil writes the states of older blocks under
 * `$HOME/.foundry/anvil/tmp` and leaves them there when it is stopped by a signal (hundreds of MB over a long
 * run). Its own request log is turned off once it answers, and what it prints on stdout is dropped; its stderr
 * (its errors) goes to the caller's log.
 */
import { lookup } from 'node:dns/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from '@shadebox/node';
import { evmRpc } from './evm-rpc.js';
import { type GuardKind, spawnGuarded } from './spawn-guarded.js';

/** anvil's own default chain id. */
export const ANVIL_DEFAULT_CHAIN_ID = 31337;
/** anvil's own default port. */
export const ANVIL_DEFAULT_PORT = 8545;

const START_TIMEOUT_MS = 30_000;
/** How long a stop may take before the guard and anvil are killed. */
const STOP_GRACE_MS = 5_000;

export interface StartAnvilOptions {
  /** The anvil binary (./locate-anvil.ts). */
  path: string;
  /** Address to listen on (default 127.0.0.1); a host name is resolved to its address first. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  chainId: number;
  /** Its errors after start go there. */
  log: Logger;
  /** The environment anvil runs in (its HOME is replaced). */
  env?: NodeJS.ProcessEnv;
  /** The guard (default sh; node on Windows). */
  guard?: GuardKind;
}

export interface RunningAnvil {
  rpcUrl: string;
  chainId: number;
  /** The guard's process id (on POSIX also the id of the process group holding anvil). */
  guardPid: number;
  /** Stops anvil and deletes its home. Idempotent. */
  stop(): Promise<void>;
}

/** anvil could not start: the message is the one line `shadebox up` prints. */
export class AnvilStartError extends Error {
  override name = 'AnvilStartError';
}

export async function startAnvil(options: StartAnvilOptions): Promise<RunningAnvil> {
  const host = await listenAddress(options.host ?? '127.0.0.1');
  const scratch = mkdtempSync(join(tmpdir(), 'shadebox-anvil-'));
  const args = ['--host', host, '--port', String(options.port), '--chain-id', String(options.chainId)];
  const child = spawnGuarded(options.path, args, {
    scratch,
    env: { ...(options.env ?? process.env), HOME: scratch, USERPROFILE: scratch },
    guard: options.guard,
  });
  // Nothing is ever written to the guard; a guard that is gone must not throw EPIPE in this process.
  child.stdin!.on('error', () => undefined);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  let spawnError: Error | undefined;
  child.once('error', (error) => {
    spawnError = error;
  });
  const stderrTail: string[] = [];
  let started = false;
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (started) options.log.warn(`anvil: ${line}`);
    else stderrTail.push(line);
  });
  const stdout = createInterface({ input: child.stdout! });

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin!.end();
        const timer = setTimeout(() => killAll(child), STOP_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }
      rmSync(scratch, { recursive: true, force: true });
    })();
    return stopped;
  };

  try {
    const address = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new AnvilStartError(`the EVM chain (anvil) did not start within ${START_TIMEOUT_MS / 1000} s`),
          ),
        START_TIMEOUT_MS,
      );
      stdout.on('line', (line) => {
        const listening = /^Listening on (\S+)$/.exec(line.trim());
        if (listening) {
          clearTimeout(timer);
          resolve(listening[1]!);
        }
      });
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new AnvilStartError(describeExit(options, host, code ?? signal, stderrTail, spawnError)));
      });
    });
    const port = address.slice(address.lastIndexOf(':') + 1);
    const rpcUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    await evmRpc(rpcUrl, 'anvil_setLoggingEnabled', [false]);
    const chainId = Number.parseInt(await evmRpc<string>(rpcUrl, 'eth_chainId'), 16);
    started = true;
    for (const line of stderrTail) options.log.warn(`anvil: ${line}`);
    void exited.then(({ code, signal }) => {
      if (stopped === undefined) {
        options.log.error(
          `the EVM chain (anvil) exited on its own (${code ?? signal}); up goes on without it`,
        );
      }
    });
    return { rpcUrl, chainId, guardPid: child.pid!, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The guard and anvil at once (POSIX: their process group). */
function killAll(child: import('node:child_process').ChildProcess): void {
  try {
    if (process.platform === 'win32') child.kill('SIGKILL');
    else process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** anvil takes an IP address: `localhost` and other names are resolved as the node's server resolves them. */
async function listenAddress(host: string): Promise<string> {
  if (isIP(host) !== 0) return host;
  try {
    return (await lookup(host)).address;
  } catch {
    throw new AnvilStartError(`cannot listen on ${host}: the host name does not resolve (check --host)`);
  }
}

/** The one line for an anvil that exited before it listened. */
function describeExit(
  options: StartAnvilOptions,
  host: string,
  status: number | string | null,
  stderr: readonly string[],
  spawnError: Error | undefined,
): string {
  const text = stderr.join(' ');
  const where = `${host.includes(':') ? `[${host}]` : host}:${options.port}`;
  if (/address already in use/i.test(text)) {
    return `cannot listen on ${where} for the EVM chain (anvil): the address is already in use (pick another port with --evm-port, 0 for a free one, or run without it: --no-evm)`;
  }
  if (/cannot assign requested address/i.test(text)) {
    return `cannot listen on ${where} for the EVM chain (anvil): no such local address (check --host)`;
  }
  if (/permission denied/i.test(text) && options.port > 0 && options.port < 1024) {
    return `cannot listen on ${where} for the EVM chain (anvil): permission denied (ports below 1024 need privileges; use --evm-port)`;
  }
  const why = spawnError?.message ?? (stderr.filter((line) => line.trim() !== '').at(-1) || `exit ${status}`);
  return `the EVM chain (anvil, ${options.path}) did not start: ${why.trim()}`;
}

/**
 * Child processes of the benchmark: every server it spawns is tracked here and killed when the benchmark
 * exits, fails or is interrupted, so no node or anvil outlives a run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const children = new Set<ChildProcess>();
let cleanupInstalled = false;

/** Kills every tracked child that is still running (SIGKILL: used on exit and on error paths). */
export function killAllChildren(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
}

/** Kills the children on normal exit, on SIGINT/SIGTERM and on an uncaught error. Idempotent. */
export function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on('exit', killAllChildren);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      console.error(`bench: ${signal}, stopping servers`);
      killAllChildren();
      process.exit(130);
    });
  }
  process.on('uncaughtException', (error) => {
    console.error('bench: uncaught error:', error);
    killAllChildren();
    process.exit(1);
  });
}

/** A spawned server with its output kept in a bounded tail (for error messages) and drained otherwise. */
export interface TrackedChild {
  child: ChildProcess;
  pid: number;
  /** performance.now() just before spawn. */
  spawnedAt: number;
  /** The last lines of stdout and stderr. */
  tail(): string;
  /** Resolves with the first stdout line `match` accepts and the time it arrived. */
  waitForLine<T>(
    match: (line: string) => T | undefined,
    timeoutMs: number,
  ): Promise<{ value: T; at: number }>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnTracked(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; keepStdinOpen?: boolean } = {},
): TrackedChild {
  const spawnedAt = performance.now();
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    // An open stdin pipe lets a cooperating child notice that the benchmark died (stdin ends).
    stdio: [options.keepStdinOpen ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) {
    // spawn reports ENOENT and the like asynchronously; make it visible as an exit.
    child.once('error', () => undefined);
  }
  children.add(child);
  const lines: string[] = [];
  const remember = (prefix: string) => (line: string) => {
    lines.push(prefix + line);
    if (lines.length > 40) lines.shift();
  };
  const stdout = createInterface({ input: child.stdout! });
  const stderr = createInterface({ input: child.stderr! });
  stdout.on('line', remember(''));
  stderr.on('line', remember('stderr: '));

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    const done = (code: number | null, signal: NodeJS.Signals | null) => {
      children.delete(child);
      resolve({ code, signal });
    };
    child.once('exit', done);
    child.once('error', (error) => {
      remember('spawn error: ')(String(error));
      done(null, null);
    });
  });

  return {
    child,
    pid: child.pid ?? -1,
    spawnedAt,
    exited,
    tail: () => lines.join('\n'),
    waitForLine<T>(match: (line: string) => T | undefined, timeoutMs: number) {
      return new Promise<{ value: T; at: number }>((resolve, reject) => {
        if (child.exitCode !== null || child.signalCode !== null) {
          reject(new Error(`process already exited; output:\n${lines.join('\n')}`));
          return;
        }
        const onLine = (line: string) => {
          const value = match(line);
          if (value === undefined) return;
          const at = performance.now();
          cleanup();
          resolve({ value, at });
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ready line within ${timeoutMs} ms; output:\n${lines.join('\n')}`));
        }, timeoutMs);
        const onExit = () => {
          cleanup();
          reject(new Error(`process exited before it was ready; output:\n${lines.join('\n')}`));
        };
        const onError = (error: Error) => {
          cleanup();
          reject(new Error(`cannot start ${command}: ${error.message}`));
        };
        const cleanup = () => {
          clearTimeout(timer);
          stdout.off('line', onLine);
          child.off('exit', onExit);
          child.off('error', onError);
        };
        stdout.on('line', onLine);
        child.once('exit', onExit);
        child.once('error', onError);
      });
    },
    async stop(graceMs = 3000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * The stack under fuzzing: `shadebox up --json` as a child process (in memory, or on a disk home that a restart
 * can reopen), its two ready lines, its RSS read from /proc, its error log lines counted.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../packages/cli/bin/shadebox.js', import.meta.url));

export interface StackReady {
  rpcUrl: string;
  agentApiUrl: string;
  agentContractId: string;
  mpcContractId: string;
  accounts: Array<{ accountId: string; publicKey: string; secretKey: string }>;
  /** The funded dev accounts genesis made (`shadebox up --accounts`). */
  devAccounts?: Array<{ accountId: string; publicKey: string; secretKey: string }>;
  agentAccountId?: string;
}

export interface Stack {
  pid: number;
  ready: StackReady;
  /** Whether the process is still running. */
  alive(): boolean;
  /** Resident set size in bytes (0 once it exited). */
  rss(): number;
  /** stderr lines at level error or above (pino level ≥ 50), and the last lines of output. */
  errorLines: string[];
  tail(): string;
  /** SIGTERM; resolves with the exit code (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<number | null>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartStackOptions {
  /** A disk home (a stack home: the node's is `<home>/node`); in memory when unset. */
  home?: string;
  /** Run the TypeScript sources (tsx) rather than the built packages. */
  fromSource: boolean;
  /** Wait for the agent's registration too. */
  waitAgent: boolean;
  timeoutMs?: number;
}

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export async function startStack(options: StartStackOptions): Promise<Stack> {
  const args = [CLI, 'up', '--json', '--rpc-port', '0', '--agent-port', '0'];
  if (options.home) args.push('--home', options.home);
  else args.push('--memory');
  const env: NodeJS.ProcessEnv = { ...process.env, SHADEBOX_LOG: 'warn' };
  if (options.fromSource) env.SHADEBOX_FROM_SOURCE = '1';
  else delete env.SHADEBOX_FROM_SOURCE;
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  const tail: string[] = [];
  const errorLines: string[] = [];
  const remember = (line: string) => {
    tail.push(line);
    if (tail.length > 60) tail.shift();
  };
  createInterface({ input: child.stderr! }).on('line', (line) => {
    remember(`stderr: ${line}`);
    let level = 0;
    try {
      level = (JSON.parse(line) as { level?: number }).level ?? 0;
    } catch {
      // Not a log line (a stack trace printed raw counts as an error line).
      level = 50;
    }
    if (level >= 50 && errorLines.length < 1000) errorLines.push(line.slice(0, 2000));
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    }),
  );
  const ready = await new Promise<StackReady>((resolve, reject) => {
    let first: StackReady | undefined;
    const timer = setTimeout(
      () => reject(new Error(`shadebox up not ready in time:\n${tail.join('\n')}`)),
      options.timeoutMs ?? 120_000,
    );
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`shadebox up exited (${code ?? signal}) before it was ready:\n${tail.join('\n')}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      remember(line);
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(line);
      } catch {
        return;
      }
      if (event.event === 'ready') {
        first = event as unknown as StackReady;
        if (!options.waitAgent) {
          clearTimeout(timer);
          resolve(first);
        }
      } else if (event.event === 'agent-ready' && first) {
        clearTimeout(timer);
        resolve({ ...first, agentAccountId: event.agentAccountId as string });
      }
    });
  });
  const pid = child.pid!;
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    pid,
    ready,
    alive,
    rss: () => (alive() ? rssOf(pid) : 0),
    errorLines,
    tail: () => tail.join('\n'),
    exited,
    async stop(graceMs = 30_000) {
      if (!alive()) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const { code } = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** VmRSS of a process, in bytes. */
export function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Test support: runs the real `shadebox` CLI in a child process (from source, through tsx, with the `source`
 * export condition) and watches its output. Every child is killed when the test file ends, and every wait is
 * bounded, so a hung CLI fails its test instead of hanging the run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { RpcClient } from '@shadebox/near-client';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const CLI_MAIN = join(REPO_ROOT, 'packages/cli/src/main.ts');
export const CLI_BIN = join(REPO_ROOT, 'packages/cli/bin/shadebox.js');
/** tsx by URL, so that children can run with any working directory. */
const TSX = import.meta.resolve('tsx');

/** How long a node may take to print its ready line (tsx compiles the sources on a cold cache). */
export const READY_TIMEOUT_MS = 60_000;
/** How long a command may take to exit. */
export const EXIT_TIMEOUT_MS = 30_000;

const children = new Set<ChildProcess>();
const tempDirs: string[] = [];
after(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh temporary directory, deleted when the test file ends. */
export async function tempDir(prefix = 'shadebox-cli-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface SpawnOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Run `bin/shadebox.js` instead of `src/main.ts` through tsx. */
  bin?: boolean;
  /** Run this executable instead (e.g. a `shadebox` installed from a tarball), with `args` alone. */
  command?: string;
}

/** The environment of a child: this one without the variables that change the CLI's behaviour. */
function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.SHADEBOX_LOG;
  delete env.SHADEBOX_FROM_SOURCE;
  delete env.NODE_OPTIONS;
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** A running CLI process. */
export class CliProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  readonly exited: Promise<Exit>;

  constructor(args: readonly string[], options: SpawnOptions = {}) {
    const argv = options.bin
      ? [CLI_BIN, ...args]
      : ['--conditions=source', '--import', TSX, CLI_MAIN, ...args];
    this.child = spawn(options.command ?? process.execPath, options.command ? args : argv, {
      cwd: options.cwd ?? REPO_ROOT,
      env: childEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(this.child);
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk;
    });
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => {
      this.child.once('close', (code, signal) => {
        children.delete(this.child);
        resolve({ code, signal, stdout: this.stdout, stderr: this.stderr });
      });
    });
  }

  /** Resolves with the first complete line of stdout; rejects if the process exits first or on timeout. */
  async firstLine(timeoutMs = READY_TIMEOUT_MS): Promise<string> {
    return this.waitFor(() => {
      const end = this.stdout.indexOf('\n');
      return end === -1 ? undefined : this.stdout.slice(0, end);
    }, timeoutMs);
  }

  /** Resolves once stdout contains `text`. */
  async stdoutIncludes(text: string, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
    await this.waitFor(() => (this.stdout.includes(text) ? true : undefined), timeoutMs);
  }

  /** Resolves once stderr contains `text`. */
  async stderrIncludes(text: string, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
    await this.waitFor(() => (this.stderr.includes(text) ? true : undefined), timeoutMs);
  }

  /** Polls `check` on every output until it returns a value; bounded by the timeout and the process's exit. */
  private waitFor<T>(check: () => T | undefined, timeoutMs: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let done = false;
      const finish = (error: Error | undefined, value?: T) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.child.stdout!.off('data', poll);
        this.child.stderr!.off('data', poll);
        if (error) reject(error);
        else resolve(value as T);
      };
      const poll = () => {
        // Runs after this object's own data listeners (registered first), so the text is up to date.
        const value = check();
        if (value !== undefined) finish(undefined, value);
      };
      const timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        finish(new Error(`timed out after ${timeoutMs} ms\nstdout: ${this.stdout}\nstderr: ${this.stderr}`));
      }, timeoutMs);
      this.child.stdout!.on('data', poll);
      this.child.stderr!.on('data', poll);
      void this.exited.then((exit) => {
        poll();
        finish(
          new Error(
            `exited (${exit.code ?? exit.signal}) first\nstdout: ${exit.stdout}\nstderr: ${exit.stderr}`,
          ),
        );
      });
      poll();
    });
  }

  /** Sends `signal` and waits for the exit, killing the process if it takes too long. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = EXIT_TIMEOUT_MS): Promise<Exit> {
    this.child.kill(signal);
    return this.exit(timeoutMs);
  }

  /** Waits for the exit, killing the process if it takes too long. */
  async exit(timeoutMs = EXIT_TIMEOUT_MS): Promise<Exit> {
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Runs the CLI to completion. */
export function runCli(args: readonly string[], options: SpawnOptions = {}): Promise<Exit> {
  return new CliProcess(args, options).exit();
}

/** A JSON-RPC call through @shadebox/near-client (a JSON-RPC error throws its `RpcError`). */
export function rpc<T = unknown>(url: string, method: string, params: unknown = []): Promise<T> {
  return new RpcClient(url, { timeoutMs: 10_000, idPrefix: 'cli-test' }).call<T>(method, params);
}

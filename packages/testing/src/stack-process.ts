/**
 * The `shadebox up` child process: its stdout read line by line (the JSON ready lines), the end of its stderr
 * kept for error messages (logs and the transaction log), every wait bounded by a deadline and the process's
 * exit, and a stop that sends SIGTERM, then SIGKILL if it does not exit in time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { StackStartError } from './errors.js';
import type { Command } from './shadebox-bin.js';

/** How much of stderr is kept (its end). */
const STDERR_KEPT = 64 * 1024;
/** How long a stopping stack may take before it is killed. */
export const STOP_TIMEOUT_MS = 30_000;

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class StackProcess {
  readonly #child: ChildProcess;
  readonly #lines: string[] = [];
  #partial = '';
  #stderr = '';
  #exit: ProcessExit | undefined;
  #notify: (() => void) | undefined;
  readonly exited: Promise<ProcessExit>;

  constructor(command: Command, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv) {
    this.#child = spawn(command.file, [...command.prefix, ...args], {
      cwd,
      env,
      // A pipe as stdin, never written: `up --stop-with-stdin` stops when it ends, which it does when this
      // process is gone however it ended (even SIGKILL, where no exit handler runs).
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.#child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (this.#partial + chunk).split('\n');
      this.#partial = parts.pop()!;
      this.#lines.push(...parts.filter((line) => line.trim() !== ''));
      this.#notify?.();
    });
    this.#child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-STDERR_KEPT);
    });
    this.exited = new Promise((resolve) => {
      // A spawn that fails (no such executable) emits `error` and then `close`.
      this.#child.once('error', (error) => {
        this.#stderr += `\n${error.message}`;
      });
      this.#child.once('close', (code, signal) => {
        this.#exit = { code, signal };
        this.#notify?.();
        resolve(this.#exit);
      });
    });
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** The end of what the stack wrote on stderr (its logs and transaction log). */
  get stderr(): string {
    return this.#stderr;
  }

  /** Kills the process at once, without waiting (for the exit-time cleanup). */
  killNow(): void {
    if (this.#exit === undefined) this.#child.kill('SIGKILL');
  }

  /**
   * The next line of stdout; rejects if the process exits first, or kills it and rejects once `deadline` (a
   * `Date.now()` value, `timeoutMs` after the start) passes.
   */
  nextLine(deadline: number, timeoutMs: number, waitingFor: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        this.#notify = undefined;
      };
      const check = () => {
        const line = this.#lines.shift();
        if (line !== undefined) {
          finish();
          resolve(line);
        } else if (this.#exit !== undefined) {
          finish();
          const how = this.#exit.code ?? this.#exit.signal;
          reject(new StackStartError(`shadebox up exited (${how}) before ${waitingFor}${this.#tail()}`));
        }
      };
      const timer = setTimeout(
        () => {
          finish();
          this.killNow();
          reject(
            new StackStartError(`shadebox up printed no ${waitingFor} in ${timeoutMs} ms${this.#tail()}`),
          );
        },
        Math.max(0, deadline - Date.now()),
      );
      this.#notify = check;
      check();
    });
  }

  /** SIGTERM, then SIGKILL after `timeoutMs`; resolves with the exit. */
  async stop(timeoutMs = STOP_TIMEOUT_MS): Promise<ProcessExit> {
    if (this.#exit !== undefined) return this.#exit;
    this.#child.kill('SIGTERM');
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  #tail(): string {
    const lines = this.#stderr.trimEnd().split('\n').slice(-20).join('\n');
    return lines === '' ? '' : `\nstderr (end):\n${lines}`;
  }
}

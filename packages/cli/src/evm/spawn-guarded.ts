/**
 * Spawns a server (anvil) that cannot outlive the process that started it, even one killed with SIGKILL: no
 * operating system does that for a child by itself (Linux's PR_SET_PDEATHSIG is out of Node's reach), so a
 * small guard runs between the two. The guard's standard input is a pipe from this process, which it never
 * writes to: the pipe ends when this process closes it (a normal stop) or when this process is gone, however
 * it ended; the guard then stops the server (SIGTERM), waits for it and removes the server's scratch folder.
 * The guard also exits when the server exits on its own, with the server's exit code.
 *
 * The guard is `sh` (a few hundred KB of memory) on every system that has one, and a second Node process on
 * Windows. The server writes its output straight to the pipes of this process (through the guard's
 * descriptors). On POSIX the guard and the server get a process group of their own, so a Ctrl+C at the
 * terminal reaches only `shadebox up`, which stops them in its own order.
 */
import { type ChildProcess, spawn } from 'node:child_process';

/**
 * The POSIX guard. $1 is the scratch folder, the rest the server's command line. The watcher reads the pipe
 * (kept as fd 3: an asynchronous list's own stdin is /dev/null in a shell without job control) and stops the
 * server at its end; `wait` returns early when a trapped signal arrives, so it is repeated until the server
 * has exited. The shell's own stderr goes to /dev/null once the server has it: sh reports a job killed by a
 * signal there ("Terminated"), and writing that to the pipe of a process that is gone would kill the shell
 * (SIGPIPE) before it deletes the scratch folder.
 */
const SH_GUARD = `scratch=$1; shift
exec 3<&0 </dev/null
"$@" 3<&- &
server=$!
{ while read -r _; do :; done; kill -TERM "$server" 2>/dev/null; } <&3 &
watcher=$!
exec 3<&- 2>/dev/null
trap '' PIPE
trap 'kill -TERM "$server" 2>/dev/null' HUP INT TERM
while :; do
  wait "$server"; code=$?
  kill -0 "$server" 2>/dev/null || break
done
kill "$watcher" 2>/dev/null
[ -n "$scratch" ] && rm -rf -- "$scratch"
exit "$code"
`;

/** The same guard in Node (Windows: no sh). argv: the scratch folder, then the server's command line. */
const NODE_GUARD = `const { spawn } = require('node:child_process');
const { rmSync } = require('node:fs');
const [scratch, command, ...args] = process.argv.slice(1);
const server = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], windowsHide: true });
const stop = () => server.kill();
process.stdin.on('end', stop).on('error', stop).resume();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, stop);
const done = (code) => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  process.exit(code);
};
server.on('error', (error) => {
  process.stderr.write(error.message + '\\n');
  done(127);
});
server.on('exit', (code) => done(code ?? 1));
`;

export type GuardKind = 'sh' | 'node';

export interface GuardedSpawnOptions {
  /** A scratch folder the guard deletes once the server has exited (its HOME, say). */
  scratch: string;
  env: NodeJS.ProcessEnv;
  /** The guard to use (default: sh, and node on Windows). */
  guard?: GuardKind;
}

/**
 * The guard's process, whose stdout and stderr are the server's. Close its stdin to stop the server; on
 * POSIX `process.kill(-child.pid, signal)` reaches the guard and the server together.
 */
export function spawnGuarded(
  command: string,
  args: readonly string[],
  options: GuardedSpawnOptions,
): ChildProcess {
  const guard = options.guard ?? (process.platform === 'win32' ? 'node' : 'sh');
  const [file, guardArgs] =
    guard === 'sh'
      ? ['/bin/sh', ['-c', SH_GUARD, 'shadebox-evm-guard', options.scratch, command, ...args]]
      : [process.execPath, ['-e', NODE_GUARD, options.scratch, command, ...args]];
  // The Node guard must not load what NODE_OPTIONS would preload into a CLI run from source (tsx).
  const env = guard === 'node' ? { ...options.env, NODE_OPTIONS: undefined } : options.env;
  return spawn(file, guardArgs, {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
    windowsHide: true,
  });
}

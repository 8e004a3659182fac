/**
 * Resident memory: of each server idle (after its first answer and `IDLE_MS` of nothing) and after the whole
 * benchmark's load on it (read in run.ts), beside a bare Node process idle as long: `node -e` of a timer, the
 * floor of any Node server (the binary, V8's heap and code at rest).
 */
import { spawn } from 'node:child_process';
import { sleep } from '../load.js';
import { type MemoryReading, readMemory } from '../proc.js';
import { probeOnce } from '../rpc.js';

/** Idle time before an idle RSS is read: start-up work (timers, lazy loading) is over by then. */
export const IDLE_MS = 2000;

export interface IdleMemory extends MemoryReading {
  afterMs: number;
}

/** RSS of a server that has answered one request (`method`) and then sat idle for `IDLE_MS`. */
export async function idleMemory(rpcUrl: string, pid: number, method: string): Promise<IdleMemory> {
  await probeOnce(rpcUrl, method, []);
  await sleep(IDLE_MS);
  const reading = readMemory(pid);
  if (!reading) throw new Error(`cannot read /proc/${pid}/status`);
  return { ...reading, afterMs: IDLE_MS };
}

/** RSS of a bare Node process (this process's node, an empty environment) idle for `IDLE_MS`. */
export async function bareNodeIdle(): Promise<IdleMemory> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], {
    stdio: 'ignore',
    env: {},
  });
  try {
    await sleep(IDLE_MS);
    const reading = child.pid === undefined ? undefined : readMemory(child.pid);
    if (!reading) throw new Error('cannot read the bare Node process');
    return { ...reading, afterMs: IDLE_MS };
  } finally {
    child.kill('SIGKILL');
  }
}

/**
 * Stacks still running when the test process ends are killed and their temporary homes removed: on `exit`
 * (a normal end, `process.exit`, an uncaught error) and on SIGINT, SIGTERM and SIGHUP (a test runner that
 * cancels a file). A process killed with SIGKILL runs no code: its stacks then stop by themselves, as the
 * pipe that is their stdin ends (`shadebox up --stop-with-stdin`), but their temporary homes stay.
 */
import { rmSync } from 'node:fs';

export interface Cleanup {
  /** Kills the process at once (synchronously sends SIGKILL). */
  kill(): void;
  /** The temporary home to remove, if any. */
  home: string | null;
}

const live = new Set<Cleanup>();
let installed = false;

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

function cleanAll(): void {
  for (const entry of live) {
    try {
      entry.kill();
    } catch {
      // already gone
    }
    if (entry.home !== null) rmSync(entry.home, { recursive: true, force: true });
  }
  live.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  cleanAll();
  // Alone on this signal, the handler would keep the process alive: end it as the signal would have.
  if (process.listenerCount(signal) === 1) {
    for (const s of SIGNALS) process.removeListener(s, onSignal);
    process.kill(process.pid, signal);
  }
}

/** Registers a running stack; the returned function unregisters it (once it is stopped). */
export function cleanupOnExit(entry: Cleanup): () => void {
  if (!installed) {
    installed = true;
    process.on('exit', cleanAll);
    for (const signal of SIGNALS) process.on(signal, onSignal);
  }
  live.add(entry);
  return () => {
    live.delete(entry);
  };
}

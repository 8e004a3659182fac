/**
 * A node home belongs to one process at a time: the node holds `DIR/shadebox.lock` while it runs. The file says
 * who holds it (pid, host, command, since when) and is made atomically: written whole under a private name,
 * then hard-linked to `shadebox.lock`, which fails if another process already holds it. A lock whose process
 * is gone (same host, no such pid, or a pid reused by a process started later) is stale and taken over.
 * The holder removes it on a clean stop, and on any exit of the process that did not stop the node.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ShadeboxError } from '@shadebox/errors';

export const HOME_LOCK_FILE = 'shadebox.lock';

/** What the lock file holds. */
export interface HomeLockInfo {
  pid: number;
  host: string;
  /** The command line of the holder (`shadebox up --home .shadebox`). */
  command: string;
  /** When it took the lock, ISO 8601. */
  since: string;
  /** Linux: the holder's start time in clock ticks since boot (/proc/PID/stat field 22), to tell a reused pid. */
  startTicks?: number;
  /** Tells this holder's lock from a later one of the same pid. */
  token: string;
}

/** The home is held by another live process. */
export class HomeInUseError extends ShadeboxError<{ dir: string; holder: HomeLockInfo }> {
  constructor(
    readonly dir: string,
    readonly holder: HomeLockInfo,
  ) {
    super(`${dir} is in use by ${describeHolder(holder)}`, {
      details: { dir, holder },
      docsPath: 'docs/configuration.md#the-home-lock',
    });
  }

  /** What to do about it, for the CLI's error line. */
  get advice(): string {
    const elsewhere = this.holder.host !== hostname();
    return elsewhere
      ? `stop it on ${this.holder.host}, or use another home; if that process is gone, delete ${join(this.dir, HOME_LOCK_FILE)}`
      : `stop it first (Ctrl-C in its terminal, or kill ${this.holder.pid}), or use another home`;
  }
}

/** `process 1234 (shadebox up --home x) since 2026-11-24T02:40:00.000Z` (and `on host h` when not this one). */
export function describeHolder(holder: HomeLockInfo): string {
  const where = holder.host === hostname() ? '' : ` on host ${holder.host}`;
  return `process ${holder.pid} (${holder.command}) since ${holder.since}${where}`;
}

export interface HomeLock {
  readonly path: string;
  readonly info: HomeLockInfo;
  /** Removes the lock if it is still this holder's. Idempotent. */
  release(): void;
}

/** Takes the lock of home `dir` (which must exist) for this process, or throws HomeInUseError. */
export function lockHome(dir: string, command = commandLine()): HomeLock {
  const path = join(dir, HOME_LOCK_FILE);
  const info: HomeLockInfo = {
    pid: process.pid,
    host: hostname(),
    command,
    since: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  };
  const ticks = startTicksOf(process.pid);
  if (ticks !== undefined) info.startTicks = ticks;
  const text = `${JSON.stringify(info, null, 2)}\n`;
  const temp = `${path}.${process.pid}.${info.token}`;
  writeFileSync(temp, text, { mode: 0o644 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(temp, path);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const held = readHolderText(path);
      if (held === null) continue; // released in between
      const holder = parseHolder(held);
      if (holder !== null && isAlive(holder)) throw new HomeInUseError(dir, holder);
      if (attempt >= 5) throw new HomeInUseError(dir, holder ?? unknownHolder());
      removeStale(path, held);
    }
  } finally {
    unlinkQuietly(temp);
  }

  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    const held = readHolderText(path);
    if (held !== null && parseHolder(held)?.token === info.token) unlinkQuietly(path);
  };
  // A process that ends without stopping the node (an uncaught error, process.exit) leaves no lock behind.
  process.on('exit', release);
  return { path, info, release };
}

/** The live holder of home `dir`'s lock, or null when it is free (no lock, or a stale one). */
export function homeLockHolder(dir: string): HomeLockInfo | null {
  const held = readHolderText(join(dir, HOME_LOCK_FILE));
  if (held === null) return null;
  const holder = parseHolder(held);
  if (holder === null) return null;
  return isAlive(holder) ? holder : null;
}

/** Throws HomeInUseError when home `dir` is held by a live process (for commands that rewrite or delete it). */
export function assertHomeFree(dir: string): void {
  const holder = homeLockHolder(dir);
  if (holder !== null) throw new HomeInUseError(dir, holder);
}

function commandLine(): string {
  const [, script = '', ...args] = process.argv;
  const name =
    script
      .split(/[\\/]/)
      .at(-1)
      ?.replace(/\.[cm]?[jt]s$/, '') ?? 'node';
  return [name, ...args].join(' ');
}

function readHolderText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function parseHolder(text: string): HomeLockInfo | null {
  try {
    const v = JSON.parse(text) as Partial<HomeLockInfo>;
    if (!Number.isSafeInteger(v.pid) || typeof v.host !== 'string') return null;
    return {
      pid: v.pid as number,
      host: v.host,
      command: typeof v.command === 'string' ? v.command : '?',
      since: typeof v.since === 'string' ? v.since : '?',
      ...(typeof v.startTicks === 'number' ? { startTicks: v.startTicks } : {}),
      token: typeof v.token === 'string' ? v.token : '',
    };
  } catch {
    return null;
  }
}

const unknownHolder = (): HomeLockInfo => ({ pid: 0, host: '?', command: '?', since: '?', token: '' });

/** Whether the holder may still run. Another host's process cannot be checked: it counts as alive. */
function isAlive(holder: HomeLockInfo): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: the pid exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(holder.pid);
  if (stat === undefined) return true;
  // A killed process its parent has not reaped yet is a zombie: it no longer holds anything.
  if (stat.state === 'Z' || stat.state === 'X') return false;
  // The pid was reused by a process started later.
  if (holder.startTicks !== undefined && stat.startTicks !== holder.startTicks) return false;
  return true;
}

function startTicksOf(pid: number): number | undefined {
  return procStat(pid)?.startTicks;
}

/** Linux: the state (field 3) and start time (field 22, clock ticks since boot) of /proc/PID/stat, read after
 * the parenthesised command name, which may hold spaces. */
function procStat(pid: number): { state: string; startTicks: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const startTicks = Number(fields[19]);
    return Number.isSafeInteger(startTicks) ? { state: fields[0], startTicks } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Removes a stale lock, but only the one judged stale: it is first moved aside (atomically), and if what was
 * moved is not that lock (another process took over in between), it is put back.
 */
function removeStale(path: string, staleText: string): void {
  const aside = `${path}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (readHolderText(aside) === staleText) {
    unlinkQuietly(aside);
    return;
  }
  try {
    linkSync(aside, path);
  } catch {
    // Someone holds the lock again: theirs stands.
  }
  unlinkQuietly(aside);
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

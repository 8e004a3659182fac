import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  assertHomeFree,
  HOME_LOCK_FILE,
  HomeInUseError,
  type HomeLockInfo,
  homeLockHolder,
  lockHome,
} from './home-lock.js';
import { initHome } from './init-home.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shadebox-lock-'));
  dirs.push(dir);
  return dir;
}

/** A pid no process has now (searched downwards from the top of Linux's default pid range). */
function deadPid(): number {
  for (let pid = 4_194_303; pid > 1; pid--) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
  throw new Error('no free pid');
}

function writeLock(dir: string, info: Partial<HomeLockInfo>): void {
  const full = {
    host: hostname(),
    command: 'shadebox node',
    since: '2026-01-01T00:00:00.000Z',
    token: 't',
    ...info,
  };
  writeFileSync(join(dir, HOME_LOCK_FILE), JSON.stringify(full));
}

describe('home lock', () => {
  it('names its holder, refuses a second holder, and is gone once released', () => {
    const dir = freshDir();
    const lock = lockHome(dir, 'shadebox up --home x');
    const written = JSON.parse(readFileSync(join(dir, HOME_LOCK_FILE), 'utf8')) as HomeLockInfo;
    assert.equal(written.pid, process.pid);
    assert.equal(written.host, hostname());
    assert.equal(written.command, 'shadebox up --home x');
    assert.ok(!Number.isNaN(Date.parse(written.since)));
    assert.deepEqual(homeLockHolder(dir), written);

    const second = (() => {
      try {
        lockHome(dir, 'shadebox node');
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    assert.ok(second instanceof HomeInUseError);
    assert.equal(second.holder.pid, process.pid);
    assert.match(
      second.message,
      new RegExp(`in use by process ${process.pid} \\(shadebox up --home x\\) since `),
    );
    assert.match(second.advice, new RegExp(`kill ${process.pid}`));
    assert.throws(() => assertHomeFree(dir), HomeInUseError);
    // Nothing but the lock is left behind in the home (no temporary files).
    assert.deepEqual(readdirSync(dir), [HOME_LOCK_FILE]);

    lock.release();
    assert.equal(existsSync(join(dir, HOME_LOCK_FILE)), false);
    assert.equal(homeLockHolder(dir), null);
    assertHomeFree(dir);
    lock.release(); // idempotent
  });

  it('takes over a stale lock: its pid is gone, or reused by a process started later', () => {
    const dir = freshDir();
    writeLock(dir, { pid: deadPid() });
    assert.equal(homeLockHolder(dir), null);
    const lock = lockHome(dir);
    assert.equal(homeLockHolder(dir)?.token, lock.info.token);
    lock.release();

    if (existsSync(`/proc/${process.pid}/stat`)) {
      // The same pid as a live process, but another start time: the pid was reused after a crash.
      writeLock(dir, { pid: process.pid, startTicks: 1 });
      assert.equal(homeLockHolder(dir), null);
      const again = lockHome(dir);
      again.release();
    }
    // An unreadable lock file is no holder.
    writeFileSync(join(dir, HOME_LOCK_FILE), '{"pid":');
    lockHome(dir).release();
    assert.deepEqual(readdirSync(dir), []);
  });

  it("another host's lock cannot be checked: it holds, and the advice names the file", () => {
    const dir = freshDir();
    writeLock(dir, { pid: deadPid(), host: 'elsewhere.example' });
    const error = (() => {
      try {
        lockHome(dir);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    assert.ok(error instanceof HomeInUseError);
    assert.match(error.message, /on host elsewhere\.example/);
    assert.match(error.advice, new RegExp(`delete ${join(dir, HOME_LOCK_FILE)}`));
  });

  it('release leaves a lock another holder took since alone', () => {
    const dir = freshDir();
    const lock = lockHome(dir);
    writeLock(dir, { pid: process.pid, token: 'someone else' });
    lock.release();
    assert.equal(homeLockHolder(dir)?.token, 'someone else');
  });

  it('initHome --force refuses a home in use; without force the existing home is reported as before', async () => {
    const dir = freshDir();
    await initHome(dir);
    const lock = lockHome(dir, 'shadebox node');
    await assert.rejects(initHome(dir, { force: true }), HomeInUseError);
    await assert.rejects(initHome(dir), { name: 'HomeExistsError' });
    lock.release();
    await initHome(dir, { force: true });
  });
});

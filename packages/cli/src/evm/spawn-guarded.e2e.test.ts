/**
 * The guard that keeps anvil from outliving `shadebox up`, both kinds (sh, and the Node one Windows uses), with
 * a stand-in server (a Node process printing its pid): closing the guard's stdin stops the server and deletes
 * the scratch folder; a server that exits on its own takes the guard with it, with its exit code; and when the
 * process that spawned the guard is killed with SIGKILL, the server is stopped all the same.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { type GuardKind, spawnGuarded } from './spawn-guarded.js';

const SERVER = ['-e', 'console.log(process.pid); setInterval(() => {}, 1000);'];
const started: number[] = [];
after(() => {
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
});

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'shadebox-guard-test-'));
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`exited (${code}) before printing`)));
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie (exited, not yet reaped by its parent) is gone too.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** Polls until `check` holds; fails after a generous bound instead of hanging. */
async function eventually(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`still not true after 20 s: ${what}`);
}

for (const guard of ['sh', 'node'] as GuardKind[]) {
  describe(`spawnGuarded (${guard})`, () => {
    it('closing its stdin stops the server and deletes the scratch folder', async () => {
      const dir = scratch();
      const child = spawnGuarded(process.execPath, SERVER, { scratch: dir, env: process.env, guard });
      const serverPid = Number(await firstLine(child));
      started.push(serverPid, child.pid!);
      assert.ok(alive(serverPid));
      const exited = exitOf(child);
      child.stdin!.end();
      await exited;
      assert.equal(alive(serverPid), false);
      assert.equal(existsSync(dir), false);
    });

    it('a server that exits on its own takes the guard with it, with its exit code', async () => {
      const dir = scratch();
      const child = spawnGuarded(process.execPath, ['-e', 'process.exit(7)'], {
        scratch: dir,
        env: process.env,
        guard,
      });
      started.push(child.pid!);
      assert.equal(await exitOf(child), 7);
      assert.equal(existsSync(dir), false);
    });

    it('SIGKILL of the process that spawned it: the server is stopped and its scratch folder deleted', async () => {
      const dir = scratch();
      // A parent that spawns the guard and passes the server's stdout on, then is killed.
      const module = new URL('./spawn-guarded.ts', import.meta.url).href;
      const parent = spawn(
        process.execPath,
        [
          '--import',
          import.meta.resolve('tsx'),
          '--input-type=module',
          '-e',
          `const { spawnGuarded } = await import(${JSON.stringify(module)});
           const child = spawnGuarded(process.execPath, ${JSON.stringify(SERVER)}, { scratch: ${JSON.stringify(dir)}, env: process.env, guard: ${JSON.stringify(guard)} });
           child.stdout.pipe(process.stdout);`,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      started.push(parent.pid!);
      const serverPid = Number(await firstLine(parent));
      started.push(serverPid);
      assert.ok(alive(serverPid));
      parent.kill('SIGKILL');
      await eventually(`server ${serverPid} stopped`, () => !alive(serverPid));
      await eventually(`${dir} deleted`, () => !existsSync(dir));
      rmSync(dir, { recursive: true, force: true });
    });
  });
}

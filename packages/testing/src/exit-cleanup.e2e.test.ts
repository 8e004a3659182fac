/**
 * A test process that ends without stopping its stack — an uncaught error, or a runner's SIGTERM — leaves no
 * `shadebox up` behind and no temporary home: the harness's exit-time cleanup, run in a child process; one
 * killed with SIGKILL leaves no `shadebox up` either (it stops when its stdin, a pipe from the test, ends).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { describe, it } from 'node:test';

const HARNESS = new URL('./index.ts', import.meta.url).href;
const TSX = import.meta.resolve('tsx');

/** A process that starts a stack, prints its pid and home, then throws (`throw`) or waits (`wait`). */
function testProcess(then: 'throw' | 'wait'): ChildProcess {
  const script = `
    const { startStack } = await import(${JSON.stringify(HARNESS)});
    const stack = await startStack({ args: ['--quiet'] });
    console.log(JSON.stringify({ pid: stack.pid, home: stack.home }));
    ${then === 'throw' ? "throw new Error('a failing test');" : 'setInterval(() => {}, 1000);'}
  `;
  return spawn(
    process.execPath,
    ['--conditions=source', '--import', TSX, '--input-type=module', '-e', script],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

function firstLine(child: ChildProcess): Promise<{ pid: number; home: string }> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (d) => {
      err += d;
    });
    child.stdout!.on('data', (d) => {
      out += d;
      const end = out.indexOf('\n');
      if (end >= 0) resolve(JSON.parse(out.slice(0, end)));
    });
    child.once('close', (code) => reject(new Error(`exited ${code} first: ${err}`)));
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
}

/** Until `pid` is gone (a SIGKILL is delivered at once, the process is reaped a moment later). */
async function gone(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a test process that ends with its stack running', { timeout: 180_000 }, () => {
  it('on an uncaught error: the stack is killed and its home removed', async () => {
    const child = testProcess('throw');
    const ending = exited(child);
    const { pid, home } = await firstLine(child);
    assert.equal((await ending).code, 1);
    await gone(pid);
    assert.equal(existsSync(home), false);
  });

  it('on SIGKILL (no code runs): the stack stops by itself, its stdin having ended', async () => {
    const child = testProcess('wait');
    const ending = exited(child);
    const { pid, home } = await firstLine(child);
    child.kill('SIGKILL');
    assert.equal((await ending).signal, 'SIGKILL');
    await gone(pid);
    await rm(home, { recursive: true, force: true });
  });

  it('on SIGTERM: the same, and the process still ends by that signal', async () => {
    const child = testProcess('wait');
    const ending = exited(child);
    const { pid, home } = await firstLine(child);
    child.kill('SIGTERM');
    assert.equal((await ending).signal, 'SIGTERM');
    await gone(pid);
    assert.equal(existsSync(home), false);
  });
});

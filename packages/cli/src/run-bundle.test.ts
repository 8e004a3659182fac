import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
// bin/run-bundle.js is CommonJS (bin/package.json); its one export is loadBundle.
import runBundle from '../bin/run-bundle.js';

const { loadBundle, shouldWriteCache, LAUNCH_FLAGS } = runBundle as {
  loadBundle: (file: string) => Record<string, unknown>;
  shouldWriteCache: (found: boolean, rejected: boolean, execArgv: string[]) => boolean;
  LAUNCH_FLAGS: string[];
};

const dir = mkdtempSync(join(tmpdir(), 'shadebox-run-bundle-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A bundle as scripts/bundle-cli.mjs writes one: its id line, then a CommonJS body wrapped as a function. */
function writeBundle(name: string, id: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    `// bundle ${id}\n(function (exports, require, module, __filename, __dirname) {\n${body}\n})\n`,
  );
  return file;
}

async function waitForFile(file: string): Promise<Buffer> {
  for (let waited = 0; waited < 30_000; waited += 20) {
    if (existsSync(file)) return readFileSync(file);
    await sleep(20);
  }
  throw new Error(`${file} was not written`);
}

describe('loadBundle', () => {
  it("runs the bundle's body as a CommonJS module and returns its exports", () => {
    const file = writeBundle(
      'exports.js',
      'a1',
      'exports.answer = 42; exports.file = __filename; exports.path = require("node:path").sep;',
    );
    const exported = loadBundle(file);
    assert.equal(exported.answer, 42);
    assert.equal(exported.file, file);
    assert.equal(exported.path, '/');
  });

  it('writes a code cache beside the bundle, headed by the bundle id, Node version and architecture', async () => {
    const file = writeBundle('cached.js', 'b2', 'exports.twice = (n) => n * 2;');
    assert.equal((loadBundle(file).twice as (n: number) => number)(21), 42);
    const cache = await waitForFile(`${file}.v8cache`);
    const header = `shadebox-v8cache b2 ${process.version} ${process.arch}\n`;
    assert.equal(cache.toString('latin1', 0, header.length), header);
    assert.ok(cache.length > header.length, 'V8 data follows the header');
    // The next load takes the cache and runs the same code.
    assert.equal((loadBundle(file).twice as (n: number) => number)(5), 10);
  });

  it("ignores a cache made for another bundle and writes the bundle's own", async () => {
    const file = writeBundle('other.js', 'c3', 'exports.value = "new";');
    const stale = `shadebox-v8cache c2 ${process.version} ${process.arch}\nnot V8 data`;
    writeFileSync(`${file}.v8cache`, stale);
    assert.equal(loadBundle(file).value, 'new');
    for (let waited = 0; readFileSync(`${file}.v8cache`, 'latin1') === stale; waited += 20) {
      assert.ok(waited < 30_000, 'the stale cache was not replaced');
      await sleep(20);
    }
    assert.ok(readFileSync(`${file}.v8cache`, 'latin1').startsWith('shadebox-v8cache c3 '));
  });

  it("replaces a cache V8 rejected only under the sh line's flags, under which the cache is made", () => {
    assert.deepEqual(LAUNCH_FLAGS, [
      '--max-semi-space-size=2',
      '--no-parallel-scavenge',
      '--no-concurrent-array-buffer-sweeping',
    ]);
    assert.equal(shouldWriteCache(false, false, []), true, 'none found: written whatever the flags');
    assert.equal(shouldWriteCache(true, false, LAUNCH_FLAGS), false, 'taken: kept');
    assert.equal(shouldWriteCache(true, true, ['--inspect', ...LAUNCH_FLAGS]), true);
    // `node bin/shadebox.js` (no flags): V8 rejects the sh line's cache, which stays for the usual starts.
    assert.equal(shouldWriteCache(true, true, []), false);
  });

  it("is run by the executables' sh line with LAUNCH_FLAGS", () => {
    for (const bin of ['shadebox.js', 'near-sandbox.js']) {
      const shLine = readFileSync(new URL(`../bin/${bin}`, import.meta.url), 'utf8').split('\n')[1];
      assert.ok(shLine.endsWith(`exec node ${LAUNCH_FLAGS.join(' ')} "$0" "$@"`), `${bin}: ${shLine}`);
    }
  });
});

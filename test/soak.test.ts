/**
 * `npm run soak` (bench/soak.ts) for 15 seconds at a low rate: the whole stack (`shadebox up` on a disk home)
 * under transfers, contract calls, views and agent-API signatures together, then its end checks. Asserts what
 * the checks found (every accepted transaction FINAL, the supply adds up, every operation answered and
 * correct, the stack stopped with exit 0), never how fast: the machine may be loaded.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const dirs: string[] = [];
after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

// biome-ignore lint/suspicious/noExplicitAny: the test reads the result JSON
type Json = any;

function runSoak(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', join(REPO_ROOT, 'bench', 'soak.ts'), ...args],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

test('a short soak: every kind of operation answered, every accepted transaction FINAL, the supply adds up', {
  timeout: 480_000,
}, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'soak-test-'));
  dirs.push(dir);
  const out = join(dir, 'soak.json');
  const { code, output } = await runSoak([
    '--seconds',
    '15',
    '--rate',
    '8',
    '--interval',
    '5',
    '--seed',
    '7',
    '--out',
    out,
  ]);
  assert.equal(code, 0, output);
  const result: Json = JSON.parse(await readFile(out, 'utf8'));
  const { summary, finality, supply, samples } = result;
  for (const [name, check] of Object.entries(summary.checks) as Array<[string, Json]>) {
    assert.ok(check.ok, `${name}: ${check.detail}`);
  }
  for (const kind of ['transfer', 'call', 'view', 'sign']) {
    assert.ok(summary.kinds[kind].completed > 0, `${kind}: some operations completed`);
    assert.equal(
      summary.kinds[kind].errors,
      0,
      `${kind}: ${JSON.stringify(summary.kinds[kind].errorsByClass)}`,
    );
  }
  assert.ok(finality.accepted > 0);
  assert.equal(finality.final, finality.accepted);
  assert.equal(
    BigInt(supply.genesisSupply),
    BigInt(supply.balances) + BigInt(supply.burnt),
    'genesis supply = Σ balances + Σ burnt',
  );
  assert.ok(BigInt(supply.burnt) > 0n, 'the load burnt gas');
  assert.ok(supply.accounts >= 12, 'the soak accounts, the contracts and the agent account were counted');
  assert.ok(samples.length >= 3, 'an RSS and latency sample every 5 s');
  assert.ok(samples.every((s: Json) => s.rssBytes > 0));
  assert.ok(
    samples.every((s: Json) => s.anon.v8PagesBytes > 0 && s.anon.mallocHeapBytes > 0),
    "RssAnon's parts, from smaps",
  );
  assert.ok(
    samples
      .slice(0, -1)
      .every((s: Json) => s.readings.rss.length >= 3 && s.readings.rss.every((b: number) => b > 0)),
    'VmRSS read every second within each 5-s interval',
  );
  assert.match(
    output,
    /\[soak +5 s\] rss \d+\.\d MiB \(anon [\d.]+: V8 [\d.]+, malloc [\d.]+, other [\d.]+; file [\d.]+; data\.mdb [\d.]+\) \| transfer /,
  );
  assert.match(output, /soak: every check passed/);
});

#!/usr/bin/env node
// Runs the tests with node:test through tsx, in two tiers, and ends with one summary line per tier and a total.
//
// The tier rule: a file under `test/` or named `*.e2e.test.ts` is end-to-end (it starts nodes, spawns the CLI
// or other processes, kills them, runs the Python client or a peer); every other `*.test.ts` is a unit test
// (in process only: pure functions and in-process harnesses; a loopback HTTP server inside the test is fine).
//
//   node scripts/run-tests.mjs [--tier=unit|e2e] [filter ...]
//
// Unit test files run in two processes (one per core), each importing its share of the files, so that the tier
// does not pay a process start and module loading per file; end-to-end files run one process each.
//
// Without --tier both tiers run, unit first; e2e runs even if unit failed, and the exit code is non-zero if
// either failed. Filters match the file path (`npm test -- primitives`). The last line of the output is
// `all: N passed, N failed, N skipped` (CI reads it).
//
// First it makes sure the third-party clients the tests drive are installed (scripts/test-clients.mjs: on a fresh
// clone it installs them into test-clients/ once, which takes 20-40 s; after that it only checks a stamp).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureTestClients } from './test-clients.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const skip = new Set(['node_modules', 'dist', '.git', '.shadebox']);
const TIERS = ['unit', 'e2e'];
const UNIT_SHARDS = 2;

function collect(dir, out) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (skip.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) collect(path, out);
    else if (name.endsWith('.test.ts')) out.push(relative(root, path).split(sep).join('/'));
  }
  return out;
}

/** The tier a test file belongs to (see the rule above). */
export function tierOf(file) {
  return file.startsWith('test/') || file.endsWith('.e2e.test.ts') ? 'e2e' : 'unit';
}

/** Sums the `# pass` / `# fail` / `# cancelled` / `# skipped` / `# todo` lines of a TAP summary. */
export function parseTapSummary(tap) {
  const count = (name) => {
    const m = [...tap.matchAll(new RegExp(`^# ${name} (\\d+)$`, 'gm'))].at(-1);
    return m ? Number(m[1]) : 0;
  };
  // A cancelled test (its file crashed or timed out) did not pass: it counts as failed.
  return {
    passed: count('pass'),
    failed: count('fail') + count('cancelled'),
    skipped: count('skipped') + count('todo'),
  };
}

/** Splits the files into `count` shard entry modules of about the same size (bytes of test source). */
function writeShards(dir, files, count) {
  const shards = Array.from({ length: count }, () => ({ size: 0, files: [] }));
  const sized = files.map((f) => ({ f, size: statSync(join(root, f)).size })).sort((a, b) => b.size - a.size);
  for (const { f, size } of sized) {
    const lightest = shards.reduce((a, b) => (b.size < a.size ? b : a));
    lightest.size += size;
    lightest.files.push(f);
  }
  return shards
    .filter((s) => s.files.length > 0)
    .map((s, i) => {
      const path = join(dir, `unit-shard-${i + 1}.mjs`);
      const imports = s.files
        .sort()
        .map((f) => `await import(${JSON.stringify(pathToFileURL(join(root, f)).href)});`);
      writeFileSync(path, `${imports.join('\n')}\n`);
      return path;
    });
}

function runTier(tier, files) {
  const dir = mkdtempSync(join(tmpdir(), 'shadebox-tests-'));
  const tapFile = join(dir, 'report.tap');
  const entries = tier === 'unit' ? writeShards(dir, files, UNIT_SHARDS) : files;
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        '--test',
        '--test-concurrency=2',
        '--test-reporter=spec',
        '--test-reporter-destination=stdout',
        '--test-reporter=tap',
        `--test-reporter-destination=${tapFile}`,
        ...entries,
      ],
      { cwd: root, stdio: 'inherit' },
    );
    child.on('close', (code, signal) => {
      const seconds = (performance.now() - started) / 1000;
      const tap = existsSync(tapFile) ? readFileSync(tapFile, 'utf8') : '';
      rmSync(dir, { recursive: true, force: true });
      const counts = parseTapSummary(tap);
      // A run that died without a summary, or exited non-zero with nothing failed, still failed.
      const ok = code === 0 && signal === null;
      if (!ok && counts.failed === 0) counts.failed = 1;
      resolve({ ...counts, seconds, ok });
    });
  });
}

async function main(argv) {
  let only;
  const filters = [];
  for (const arg of argv) {
    const m = /^--tier=(.*)$/.exec(arg);
    if (!m) filters.push(arg);
    else if (TIERS.includes(m[1])) only = m[1];
    else {
      console.error(`unknown tier ${m[1]} (expected ${TIERS.join(' or ')})`);
      return 2;
    }
  }
  const files = ['packages', 'examples', 'test']
    .flatMap((dir) => collect(join(root, dir), []))
    .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
    .sort();
  const plan = TIERS.filter((tier) => only === undefined || tier === only)
    .map((tier) => ({ tier, files: files.filter((f) => tierOf(f) === tier) }))
    .filter((p) => p.files.length > 0);
  if (plan.length === 0) {
    console.error('no test files matched');
    return 1;
  }
  try {
    await ensureTestClients();
  } catch (error) {
    console.error(`test clients: ${error.message}`);
    return 1;
  }
  const results = [];
  for (const { tier, files: tierFiles } of plan) {
    console.log(`\n── ${tier} tests (${tierFiles.length} files) ──\n`);
    results.push({ tier, ...(await runTier(tier, tierFiles)) });
  }
  const line = (r) => `${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`;
  console.log('');
  for (const r of results) console.log(`${r.tier.padEnd(6)}${line(r)} in ${r.seconds.toFixed(1)} s`);
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const r of results) for (const k of Object.keys(total)) total[k] += r[k];
  console.log(`all: ${line(total)}`);
  return results.every((r) => r.ok) ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await main(process.argv.slice(2));
}

#!/usr/bin/env node
// Compiles the AssemblyScript contracts to build/*.wasm with the npm package `assemblyscript` (offline).
// Features: AssemblyScript's defaults are exactly MVP + sign-extension + mutable-globals +
// nontrapping-f2i + bulk-memory; nothing else (SIMD, threads, multi-value, tail calls, GC, exceptions,
// relaxed SIMD, extended-const, reference types, …) is enabled, so the modules pass nearcore's preparation
// at protocol 85. `throw` ends a call through `panic_utf8` (lib/panic.ts), never AssemblyScript's `abort`.
//
// The Wasm is committed with build/sources.sha256, the hash of what it was built from (the sources under
// assembly/ and test-crypto/, the flags and the compiler's version; the output is the same on every machine).
// `--if-stale` builds only when that hash differs or a file is missing, so that `npm install` on a fresh clone
// (scripts/prepare.mjs) does not spend its longest step rebuilding what is committed; `npm test` runs it too,
// so a change to the sources is built before the tests run. Without the flag everything is built.
//
//   node build.mjs [--if-stale] [--quiet]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
export const CONTRACTS = [
  { entry: 'assembly/signer/index.ts', out: 'build/signer.wasm' },
  { entry: 'assembly/agent/index.ts', out: 'build/agent.wasm' },
  { entry: 'assembly/agent-v2/index.ts', out: 'build/agent-v2.wasm' },
  { entry: 'assembly/registrar/index.ts', out: 'build/registrar.wasm' },
];
const CONTRACT_FLAGS = [
  '--runtime',
  'stub',
  '-O3z',
  '--noAssert',
  '--use',
  'abort=assembly/lib/panic/nearAbort',
  '--initialMemory',
  '2',
];

/** The flags the crypto functions are tested with: the contracts' (no GC, -O3z, AssemblyScript's default
 * features), with AssemblyScript's own `abort` import so the test can trap on it. */
export const CRYPTO_TEST_FLAGS = ['--runtime', 'stub', '-O3z', '--noAssert'];

/** Test artifacts built with the contracts, so that the unit tests read them instead of compiling. */
const TEST_ARTIFACTS = [
  { entry: 'test-crypto/entry.ts', out: 'build/test/crypto.wasm', flags: CRYPTO_TEST_FLAGS },
];

const UNITS = [...CONTRACTS.map((c) => ({ ...c, flags: CONTRACT_FLAGS })), ...TEST_ARTIFACTS];
export const STAMP = 'build/sources.sha256';
const SOURCE_DIRS = ['assembly', 'test-crypto'];

/** The hash of what the build reads: the sources (not the tests), each unit's flags and asc's version. */
export function sourcesHash() {
  const hash = createHash('sha256');
  const { version } = createRequire(import.meta.url)('assemblyscript/package.json');
  hash.update(JSON.stringify({ asc: version, units: UNITS }));
  const files = SOURCE_DIRS.flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true })
      .map((file) => `${dir}/${file.split('\\').join('/')}`)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts')),
  ).sort();
  for (const file of files) {
    hash.update(`\0${file}\0`);
    hash.update(readFileSync(join(root, file)));
  }
  return hash.digest('hex');
}

/** Whether build/ holds every output and was built from the sources as they are. */
export function isFresh() {
  const stamp = join(root, STAMP);
  if (!existsSync(stamp) || UNITS.some(({ out }) => !existsSync(join(root, out)))) return false;
  return readFileSync(stamp, 'utf8').trim() === sourcesHash();
}

export async function build({ quiet = false, ifStale = false } = {}) {
  if (ifStale && isFresh()) {
    if (!quiet) process.stdout.write(`contracts: build/ is up to date with the sources (${STAMP})\n`);
    return false;
  }
  // Loaded here: a fresh build/ needs no compiler.
  const { default: asc } = await import('assemblyscript/asc');
  mkdirSync(join(root, 'build', 'test'), { recursive: true });
  const hash = sourcesHash();
  for (const { entry, out, flags } of UNITS) {
    const args = [entry, '--baseDir', root, '--outFile', out, ...flags];
    let stderr = '';
    const { error } = await asc.main(args, {
      stdout: {
        write: (s) => {
          if (!quiet) process.stdout.write(s);
          return true;
        },
      },
      stderr: {
        write: (s) => {
          stderr += s;
          return true;
        },
      },
    });
    if (error) {
      throw new Error(`asc failed for ${entry}: ${error.message}\n${stderr}`);
    }
    if (!quiet) process.stdout.write(`built ${out}\n`);
  }
  writeFileSync(join(root, STAMP), `${hash}\n`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  build({ quiet: args.includes('--quiet'), ifStale: args.includes('--if-stale') }).catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
}

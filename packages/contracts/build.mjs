#!/usr/bin/env node
// Compiles the AssemblyScript contracts to build/*.wasm with the npm package `assemblyscript` (offline).
// Features: AssemblyScript's defaults are exactly MVP + sign-extension + mutable-globals +
// nontrapping-f2i + bulk-memory; nothing else (SIMD, threads, multi-value, tail calls, GC, exceptions,
// relaxed SIMD, extended-const, reference types, …) is enabled, so the modules pass nearcore's preparation
// at protocol 85. `throw` ends a call through `panic_utf8` (lib/panic.ts), never AssemblyScript's `abort`.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import asc from 'assemblyscript/asc';

const root = dirname(fileURLToPath(import.meta.url));
export const CONTRACTS = [
  { entry: 'assembly/signer/index.ts', out: 'build/signer.wasm' },
  { entry: 'assembly/agent/index.ts', out: 'build/agent.wasm' },
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

export async function build({ quiet = false } = {}) {
  mkdirSync(join(root, 'build', 'test'), { recursive: true });
  const units = [...CONTRACTS.map((c) => ({ ...c, flags: CONTRACT_FLAGS })), ...TEST_ARTIFACTS];
  for (const { entry, out, flags } of units) {
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
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  build().catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
}

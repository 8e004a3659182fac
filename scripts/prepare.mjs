#!/usr/bin/env node
// `npm install`'s build (the root `prepare` script), made for the time a fresh clone takes to be ready:
//
// 1. every TypeScript workspace package's src/ is transpiled to dist/ by esbuild, file by file, as `tsc -b` lays
//    it out (ES modules and source maps), in about a second where `tsc -b` takes tens of seconds. Nothing is
//    type-checked here and no declarations are written: `npm run build` (the full build), `npm run typecheck`,
//    `npm test` and `npm run pack` run `tsc -b`, which does both;
// 2. the CLI's bundles (packages/cli/scripts/bundle-cli.mjs, which needs step 1); the contracts (AssemblyScript)
//    and the explorer page read no dist/, so they are built from the start, at the same time as step 1 and 2
//    (two cores do two at once). The contracts' Wasm is committed with the hash of its sources
//    (packages/contracts/build.mjs): it is rebuilt only when they changed.
//
// What the tests alone need (the third-party clients) is not installed here: `npm test` installs it on first use
// (scripts/test-clients.mjs).
//
//   node scripts/prepare.mjs
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The packages `tsc -b` emits JavaScript for: the root tsconfig's references, but for declaration-only ones. */
export function transpiledPackages() {
  const references = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')).references;
  return references
    .map(({ path }) => join(root, path))
    .filter((dir) => {
      const options = JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8')).compilerOptions ?? {};
      return !options.emitDeclarationOnly;
    });
}

/** The files `tsc -b` compiles in a package: src/**\/*.ts but tests, benchmarks and declaration files. */
export function sourcesOf(dir) {
  const src = join(dir, 'src');
  return readdirSync(src, { recursive: true })
    .filter(
      (file) =>
        file.endsWith('.ts') &&
        !file.endsWith('.d.ts') &&
        !file.endsWith('.test.ts') &&
        !file.endsWith('.bench.ts'),
    )
    .map((file) => join(src, file));
}

export async function transpile() {
  const esbuild = await import('esbuild');
  const started = Date.now();
  let files = 0;
  await Promise.all(
    transpiledPackages().map((dir) => {
      const entryPoints = sourcesOf(dir);
      files += entryPoints.length;
      return esbuild.build({
        entryPoints,
        outdir: join(dir, 'dist'),
        outbase: join(dir, 'src'),
        tsconfig: join(dir, 'tsconfig.json'),
        format: 'esm',
        platform: 'node',
        target: 'es2022',
        sourcemap: true,
        logLevel: 'warning',
      });
    }),
  );
  console.error(`prepare: ${files} TypeScript files transpiled in ${Date.now() - started} ms`);
}

/** Runs `node <script> <args>` from the repository root; resolves when it exits 0. */
function run(script, args = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, script), ...args], { cwd: root, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${relative(root, script)} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  try {
    // The explorer page and the contracts do not read dist/: they start with the transpile.
    await Promise.all([
      run('packages/explorer/build.mjs', ['--quiet']),
      run('packages/contracts/build.mjs', ['--if-stale']),
      transpile().then(() => run('packages/cli/scripts/bundle-cli.mjs')),
    ]);
  } catch (error) {
    console.error(`prepare: ${error.message}`);
    process.exit(1);
  }
  console.error(`prepare: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

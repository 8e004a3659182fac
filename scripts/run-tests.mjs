#!/usr/bin/env node
// Runs every test of every package with node:test through tsx.
// Unit tests sit next to the code (`packages/*/src/**/*.test.ts`); end-to-end tests live in `test/`.
// Node 20's --test takes no globs, so the files are listed here. Extra arguments are passed as filters
// on the file path, e.g. `npm test -- primitives`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const skip = new Set(['node_modules', 'dist', '.git', '.shadebox']);

function collect(dir, out) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (skip.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) collect(path, out);
    else if (name.endsWith('.test.ts')) out.push(relative(root, path));
  }
  return out;
}

const filters = process.argv.slice(2);
const files = [...collect(join(root, 'packages'), []), ...collect(join(root, 'test'), [])]
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ['--conditions=source', '--import', 'tsx', '--test', '--test-concurrency=2', ...files],
  { cwd: root, stdio: 'inherit' },
);
process.exit(result.status ?? 1);

/**
 * scripts/test-clients.mjs: the third-party clients the tests drive live in test-clients/ and are linked into
 * node_modules. Every package a test, benchmark or script imports must be declared somewhere (else it was only
 * found because another package pulled it in, and it goes missing when that one moves); the links and the
 * check of an install that lost packages are tested on folders made here.
 */
import assert from 'node:assert/strict';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { linkClient, missingPackages, testClientNames } from '../scripts/test-clients.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCANNED = ['packages', 'test', 'bench', 'fuzz', 'scripts', 'examples'];
const SKIPPED = new Set(['node_modules', 'dist', 'bundle', 'build', 'results', '.shadebox']);

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|mts|mjs|js|cjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The package names of the bare specifiers a file imports, requires or resolves (node: builtins aside). */
function importedPackages(source: string): string[] {
  const names: string[] = [];
  for (const m of source.matchAll(
    /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|\.resolve\s*\(\s*)['"]([^'"]+)['"]/g,
  )) {
    const spec = m[1];
    if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:') || spec.includes('${'))
      continue;
    const parts = spec.split('/');
    names.push(spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
  return names;
}

/**
 * The CLI's bundle script bundles lmdb's JavaScript and resolves lmdb's own dependencies from lmdb's install
 * (msgpackr, and msgpackr's optional native addon): they come with lmdb, which packages/node declares.
 */
const LMDB_OWN = new Set([
  'packages/cli/scripts/bundle-cli.mjs: msgpackr',
  'packages/cli/scripts/bundle-cli.mjs: msgpackr-extract',
]);

function declared(): Set<string> {
  const names = new Set<string>();
  const add = (file: string) => {
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    names.add(manifest.name);
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
      for (const name of Object.keys(manifest[field] ?? {})) names.add(name);
    }
  };
  add(join(ROOT, 'package.json'));
  add(join(ROOT, 'test-clients', 'package.json'));
  for (const dir of readdirSync(join(ROOT, 'packages'))) add(join(ROOT, 'packages', dir, 'package.json'));
  return names;
}

describe('test clients (scripts/test-clients.mjs)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'shadebox-test-clients-'));
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('every package a test, benchmark or script imports is declared by the root, a workspace package or test-clients/', () => {
    const known = declared();
    const builtins = new Set(builtinModules);
    const undeclared: string[] = [];
    for (const dir of SCANNED) {
      for (const file of sourceFiles(join(ROOT, dir))) {
        for (const name of importedPackages(readFileSync(file, 'utf8'))) {
          const where = relative(ROOT, file);
          if (known.has(name) || builtins.has(name) || LMDB_OWN.has(`${where}: ${name}`)) continue;
          undeclared.push(`${where}: ${name}`);
        }
      }
    }
    assert.deepEqual(undeclared, []);
  });

  it('names exact versions, none of them also a dependency of the root', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'test-clients', 'package.json'), 'utf8'));
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    for (const name of testClientNames()) {
      const version = manifest.dependencies?.[name] ?? manifest.optionalDependencies?.[name];
      assert.match(version, /^\d+\.\d+\.\d+$/, `${name}@${version}`);
      assert.equal(root.devDependencies?.[name] ?? root.dependencies?.[name], undefined, name);
    }
  });

  it('links a client into node_modules relatively, replaces a wrong link, leaves a real folder alone', () => {
    const rootDir = join(tmp, 'repo');
    const dir = join(rootDir, 'test-clients');
    for (const name of ['plain', '@scope/scoped', 'real']) {
      mkdirSync(join(dir, 'node_modules', name), { recursive: true });
      writeFileSync(join(dir, 'node_modules', name, 'package.json'), '{}');
    }
    mkdirSync(join(rootDir, 'node_modules', 'real'), { recursive: true });

    assert.equal(linkClient('plain', { rootDir, dir }), true);
    assert.equal(
      readlinkSync(join(rootDir, 'node_modules', 'plain')),
      join('..', 'test-clients', 'node_modules', 'plain'),
    );
    assert.equal(linkClient('plain', { rootDir, dir }), false, 'an existing right link is kept');
    assert.equal(linkClient('@scope/scoped', { rootDir, dir }), true);
    assert.equal(
      readlinkSync(join(rootDir, 'node_modules', '@scope', 'scoped')),
      join('..', '..', 'test-clients', 'node_modules', '@scope', 'scoped'),
    );
    assert.ok(
      JSON.parse(readFileSync(join(rootDir, 'node_modules', '@scope', 'scoped', 'package.json'), 'utf8')),
    );

    rmSync(join(rootDir, 'node_modules', 'plain'));
    mkdirSync(join(tmp, 'elsewhere'));
    symlinkSync(join(tmp, 'elsewhere'), join(rootDir, 'node_modules', 'plain'), 'dir');
    assert.equal(linkClient('plain', { rootDir, dir }), true, 'a link elsewhere is replaced');
    assert.equal(
      readlinkSync(join(rootDir, 'node_modules', 'plain')),
      join('..', 'test-clients', 'node_modules', 'plain'),
    );

    assert.equal(linkClient('real', { rootDir, dir }), false);
    assert.ok(!lstatSync(join(rootDir, 'node_modules', 'real')).isSymbolicLink(), 'a real folder stays');
    assert.equal(linkClient('absent', { rootDir, dir }), false, 'an optional one not installed is skipped');
  });

  it('finds the packages an install lost (what a root npm install deletes through the links)', () => {
    const dir = join(tmp, 'installed');
    assert.deepEqual(missingPackages(dir), ['node_modules/.package-lock.json'], 'never installed');
    for (const path of ['node_modules/a', 'node_modules/a/node_modules/b']) {
      mkdirSync(join(dir, path), { recursive: true });
      writeFileSync(join(dir, path, 'package.json'), '{}');
    }
    const packages = { '': {}, 'node_modules/a': {}, 'node_modules/a/node_modules/b': {} };
    writeFileSync(join(dir, 'node_modules', '.package-lock.json'), JSON.stringify({ packages }));
    assert.deepEqual(missingPackages(dir), []);
    rmSync(join(dir, 'node_modules/a/node_modules'), { recursive: true });
    assert.deepEqual(missingPackages(dir), ['node_modules/a/node_modules/b']);
  });
});

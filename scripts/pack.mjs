#!/usr/bin/env node
// `npm run pack`: installable tarballs of the `shadebox` CLI (with `near-sandbox`) and of the TypeScript client
// of the agent API, written to pack/ (or --out DIR):
//
//   shadebox-cli-<version>.tgz      npm install ./shadebox-cli-<version>.tgz → node_modules/.bin/shadebox, near-sandbox
//   shadebox-client-<version>.tgz   npm install ./shadebox-client-<version>.tgz → import '@shadebox/client'
//   shadebox-testing-<version>.tgz  npm install ./shadebox-testing-<version>.tgz → import '@shadebox/testing'
//                                   (the harness, with the CLI it starts inside it)
//
// The workspace packages are private and not on any registry, so each tarball carries the ones it needs inside
// it (npm's bundleDependencies: node_modules/@shadebox/* in the tarball, built as they are in the repository).
// npm does not install the dependencies of bundled packages, so every registry package they need is made a
// dependency of the tarball's own package, at the version installed here; one a workspace package keeps in
// its own node_modules (another major version than the rest uses) is copied into the bundle with it.
//
// Builds are not made here: run `npm run build` first (`npm install` does it).
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** What is packed: the workspace package and the file each needs built. */
export const TARGETS = [
  { name: '@shadebox/cli', needs: ['dist/main.js', 'bundle/shadebox.js', 'bundle/near-sandbox.js'] },
  { name: '@shadebox/client', needs: ['dist/index.js'] },
  { name: '@shadebox/testing', needs: ['dist/index.js'] },
];

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** The folder of a workspace package, by name. */
function workspaceDir(name) {
  const dir = join(root, 'packages', name.slice('@shadebox/'.length));
  if (!existsSync(join(dir, 'package.json'))) throw new Error(`no workspace package ${name} in packages/`);
  return dir;
}

/** Where Node finds `name` from a package in `fromDir`: the nearest node_modules up to the repository root. */
function resolvePackageDir(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root || dirname(dir) === dir) return undefined;
  }
}

const runtimeDependencies = (pkg) => ({ ...pkg.optionalDependencies, ...pkg.dependencies });

/**
 * The packages `name` needs at run time: the workspace packages (bundled), the registry packages found at the
 * top of the repository's node_modules (made dependencies: name → version), and the ones nested in a workspace
 * package's own node_modules (copied with it).
 */
export function closureOf(name) {
  const workspaces = new Set();
  const registry = new Map();
  const queue = [{ name, dir: workspaceDir(name) }];
  const seen = new Set();
  while (queue.length > 0) {
    const { name: current, dir } = queue.shift();
    if (seen.has(dir)) continue;
    seen.add(dir);
    if (current.startsWith('@shadebox/')) workspaces.add(current);
    const pkg = readJson(join(dir, 'package.json'));
    for (const dep of Object.keys(runtimeDependencies(pkg))) {
      if (dep.startsWith('@shadebox/')) {
        queue.push({ name: dep, dir: workspaceDir(dep) });
        continue;
      }
      const found = resolvePackageDir(dep, dir);
      if (found === undefined) {
        if (pkg.optionalDependencies?.[dep] !== undefined) continue;
        throw new Error(`${current} needs ${dep}, which is not installed: run npm install`);
      }
      if (found === join(root, 'node_modules', dep)) {
        const version = readJson(join(found, 'package.json')).version;
        const had = registry.get(dep);
        if (had !== undefined && had !== version) {
          throw new Error(`${dep} is needed at ${had} and ${version}: cannot make both a dependency`);
        }
        registry.set(dep, version);
      } else {
        // Nested in a workspace package's node_modules: copied with that package; its own needs followed.
        queue.push({ name: dep, dir: realpathSync(found) });
      }
    }
  }
  workspaces.delete(name);
  return { workspaces: [...workspaces].sort(), registry: new Map([...registry].sort()) };
}

/** The package.json a packed package gets: no workspace-only fields. */
function publishedManifest(pkg) {
  const out = { ...pkg };
  for (const field of ['private', 'devDependencies', 'scripts', 'workspaces']) delete out[field];
  return out;
}

/** Copies a package's published files (its `files` list, package.json, README, LICENSE) into `dest`. */
function copyPackage(dir, dest, manifest) {
  mkdirSync(dest, { recursive: true });
  const pkg = readJson(join(dir, 'package.json'));
  for (const entry of [...(pkg.files ?? []), 'README.md', 'LICENSE']) {
    const from = join(dir, entry);
    if (!existsSync(from)) continue;
    cpSync(from, join(dest, entry), {
      recursive: true,
      // Not the build's bookkeeping, nor tests (they run in the repository).
      filter: (path) =>
        !path.endsWith('.tsbuildinfo') &&
        !/\.test\.(ts|js|d\.ts)(\.map)?$/.test(path) &&
        !relative(dir, path)
          .split(sep)
          .some((part) => part === 'node_modules' || part === 'test-support'),
    });
  }
  writeFileSync(
    join(dest, 'package.json'),
    `${JSON.stringify(manifest ?? publishedManifest(pkg), null, 2)}\n`,
  );
}

/** Stages `target` with its workspace packages bundled and packs it into `outDir`; returns the tarball's path. */
export function packTarget(target, outDir) {
  const dir = workspaceDir(target.name);
  for (const file of target.needs) {
    if (!existsSync(join(dir, file))) {
      throw new Error(`${target.name}: ${file} is missing: run npm run build first`);
    }
  }
  const { workspaces, registry } = closureOf(target.name);
  const stage = mkdtempSync(join(tmpdir(), 'shadebox-pack-'));
  try {
    const pkg = readJson(join(dir, 'package.json'));
    const dependencies = Object.fromEntries(registry);
    for (const name of workspaces) {
      const wsDir = workspaceDir(name);
      const wsPkg = readJson(join(wsDir, 'package.json'));
      dependencies[name] = wsPkg.version;
      const dest = join(stage, 'node_modules', name);
      copyPackage(wsDir, dest);
      // Registry packages nested in the workspace package (another version than the top's) go with it.
      if (existsSync(join(wsDir, 'node_modules'))) {
        cpSync(join(wsDir, 'node_modules'), join(dest, 'node_modules'), {
          recursive: true,
          dereference: true,
          filter: (path) => !path.includes(`${sep}.bin`) && !path.includes(`${sep}@shadebox`),
        });
      }
    }
    // Optional dependencies stay optional, every platform's (anvil's binary, the CLI's), also those of a bundled
    // package (npm installs no dependency of a bundled one): npm installs the one of the machine the tarball is
    // installed on, not the one found here.
    const optional = { ...pkg.optionalDependencies };
    for (const name of workspaces)
      Object.assign(optional, readJson(join(workspaceDir(name), 'package.json')).optionalDependencies);
    for (const name of Object.keys(optional)) delete dependencies[name];
    const manifest = publishedManifest(pkg);
    manifest.dependencies = dependencies;
    if (Object.keys(optional).length > 0) manifest.optionalDependencies = optional;
    else delete manifest.optionalDependencies;
    manifest.bundleDependencies = workspaces;
    copyPackage(dir, stage, manifest);
    mkdirSync(outDir, { recursive: true });
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', outDir], {
      cwd: stage,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const [{ filename }] = JSON.parse(out);
    return join(outDir, filename.replace(/^@/, '').replace('/', '-'));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

function main(argv) {
  let outDir = join(root, 'pack');
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out' && argv[i + 1] !== undefined) outDir = resolve(argv[++i]);
    else {
      console.error(`usage: node scripts/pack.mjs [--out DIR]   (unexpected '${argv[i]}')`);
      return 2;
    }
  }
  for (const target of TARGETS) {
    const started = performance.now();
    const tarball = packTarget(target, outDir);
    const { workspaces, registry } = closureOf(target.name);
    console.log(
      `${relative(process.cwd(), tarball) || tarball}  ${target.name} with ${workspaces.length} workspace packages bundled, ` +
        `${registry.size} registry dependencies (${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
  }
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  process.exitCode = main(process.argv.slice(2));
}

#!/usr/bin/env node
// The third-party clients the tests and the benchmark drive (near-api-js, near-kit, @near-js/*, viem,
// chainsig.js and the chain SDKs it pulls, @neardefi/shade-agent-js, playwright-core, near-hello,
// near-sdk-simulator, solc) are not dependencies of the repository: `npm install && npm start` does not
// need them, and they are most of what `npm install` would otherwise unpack (about 380 MB in 35,000 files).
// They live in test-clients/, a package of their own with its own lock file (exact versions), and are
// installed there on first use:
//
// 1. when test-clients/node_modules is missing, was installed from another package.json or lock file (its
//    stamp holds their hash) or lost a package npm installed there (each one its
//    node_modules/.package-lock.json lists must still be in place), `npm ci` runs in test-clients/ (from
//    npm's cache where it can);
// 2. each package test-clients/package.json names is linked into the repository's node_modules (a relative
//    symlink), so the tests import it by name and read its files under node_modules/ as before; its own
//    dependencies resolve inside test-clients/node_modules. A package the root node_modules holds as a real
//    folder is left as it is. `npm install` at the root removes the links (they are not in its lock file),
//    and it follows them first: it deletes the linked packages' own nested node_modules as extraneous. The
//    next run finds those missing (1), installs again and puts the links back.
//
// `npm test`, `npm run bench` and `npm run soak` run it first (scripts/run-tests.mjs, package.json).
//
//   node scripts/test-clients.mjs
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const TEST_CLIENTS_DIR = join(root, 'test-clients');
const STAMP = join(TEST_CLIENTS_DIR, 'node_modules', '.shadebox-test-clients');

/** The packages test-clients/package.json names (its optional ones too). */
export function testClientNames(dir = TEST_CLIENTS_DIR) {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  return [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {})];
}

/** What an install is made from: the hash of package.json and the lock file. */
export function manifestHash(dir = TEST_CLIENTS_DIR) {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json']) hash.update(readFileSync(join(dir, file)));
  return hash.digest('hex');
}

/** The installed packages npm's record (node_modules/.package-lock.json) lists that are not in place. */
export function missingPackages(dir = TEST_CLIENTS_DIR) {
  const record = join(dir, 'node_modules', '.package-lock.json');
  if (!existsSync(record)) return ['node_modules/.package-lock.json'];
  const { packages = {} } = JSON.parse(readFileSync(record, 'utf8'));
  return Object.keys(packages).filter((path) => path !== '' && !existsSync(join(dir, path, 'package.json')));
}

/** npm itself: the one running this script when it runs under npm, else the one on PATH. */
function npmCommand() {
  const cli = process.env.npm_execpath;
  return cli?.endsWith('.js') ? [process.execPath, [cli]] : ['npm', []];
}

function npmCi(dir) {
  const [command, prefix] = npmCommand();
  // Settings an `npm run` hands its script that would send this install elsewhere.
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (
      /^npm_config_(prefix|global|workspaces?|include_workspace_root|omit|include|production)$/i.test(key)
    ) {
      delete env[key];
    }
  }
  const args = [...prefix, 'ci', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: dir, env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`npm ci in ${dir} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

/** Links node_modules/<name> to test-clients/node_modules/<name>; says whether it made or changed one. */
export function linkClient(name, { rootDir = root, dir = TEST_CLIENTS_DIR } = {}) {
  const source = join(dir, 'node_modules', name);
  if (!existsSync(source)) return false; // an optional one this platform did not install
  const link = join(rootDir, 'node_modules', name);
  const target = relative(dirname(link), source);
  let stat;
  try {
    stat = lstatSync(link);
  } catch {
    stat = undefined;
  }
  if (stat && !stat.isSymbolicLink()) return false; // installed at the root: that one is used
  if (stat && readlinkSync(link) === target) return false;
  if (stat) rmSync(link);
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(target, link, 'dir');
  return true;
}

const LOCK = join(TEST_CLIENTS_DIR, '.installing');

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Runs `fn` holding test-clients/.installing (the pid of its holder), so that two test runs started at once on
 * a fresh clone do not both run `npm ci` in the same folder; a lock whose process is gone is taken over. */
async function withInstallLock(fn, log) {
  let told = false;
  for (;;) {
    try {
      writeFileSync(LOCK, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(LOCK, 'utf8').trim());
      if (!Number.isInteger(holder) || holder <= 0 || !alive(holder)) {
        rmSync(LOCK, { force: true });
        continue;
      }
      if (!told) log(`test clients: process ${holder} is installing them; waiting`);
      told = true;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK, { force: true });
  }
}

/** Installs the test clients if they are missing or stale, then links them; prints only what it did. */
export async function ensureTestClients({ log = (line) => console.error(line) } = {}) {
  if (!isInstalled()) await withInstallLock(() => install(log), log);
  const linked = testClientNames().filter((name) => linkClient(name));
  if (linked.length > 0) log(`test clients: linked into node_modules: ${linked.join(', ')}`);
}

function isInstalled() {
  const installed = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : undefined;
  return installed === manifestHash() && missingPackages().length === 0;
}

async function install(log) {
  if (isInstalled()) return; // another run installed them while this one waited
  const hash = manifestHash();
  const installed = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : undefined;
  const missing = installed === hash ? missingPackages() : [];
  if (missing.length > 0) {
    log(`test clients: ${missing.length} installed packages are gone (${missing[0]}, …): installing again`);
  }
  log(
    `test clients: installing ${testClientNames().length} packages into test-clients/node_modules (exact ` +
      'versions of test-clients/package-lock.json; once, and again only when that file changes)',
  );
  const started = Date.now();
  await npmCi(TEST_CLIENTS_DIR);
  writeFileSync(STAMP, `${hash}\n`);
  log(`test clients: installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await ensureTestClients();
  } catch (error) {
    console.error(`test clients: ${error.message}`);
    process.exit(1);
  }
}

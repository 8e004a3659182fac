// Runs a bundle of packages/cli/bundle/ (scripts/bundle-cli.mjs) with V8's code cache: the bundle's functions
// that a start compiles are stored, compiled, in `<bundle>.v8cache` beside it (or, where that folder cannot be
// written, in ~/.cache/shadebox/), and the next start takes them from there instead of parsing and compiling
// the source again.
//
// The cache file starts with one line naming what it was made for: the bundle (the sha256 on the bundle's first
// line), Node's version and the architecture; any other bundle or Node ignores it, and V8 rejects data it did not
// make itself. A start that finds no usable cache writes one, a second after it began, with what its start
// compiled (a command that ends sooner writes none, except a bundle loaded with `cacheAtExit`, which writes it as
// the process exits: `npm install` and `npm run build` leave one, made by a `shadebox node`, a `near-sandbox init`
// and a `near-sandbox run`). It is written to a temporary file and renamed, so concurrent starts
// never read half a cache.
//
// V8 also rejects a cache made under other V8 flags. The executables' sh line runs node with LAUNCH_FLAGS, and the
// cache is made under them (scripts/bundle-cli.mjs trains it that way); a start under other flags (`node
// bin/shadebox.js`) that finds the cache rejected leaves it in place, so that such starts and the usual ones do
// not replace each other's cache in turn.
const { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { homedir } = require('node:os');
const { basename, dirname, join } = require('node:path');
const vm = require('node:vm');

const WRITE_AFTER_MS = 1000;

/**
 * The V8 flags of the executables' sh line (bin/shadebox.js, bin/near-sandbox.js: `exec node <flags> "$0"`).
 * A new space (young generation) of at most 2 MiB per semi-space instead of 16: under load V8 grows it to its
 * maximum and keeps it, 32 MiB of RSS in each thread that runs JavaScript (the node's and each view worker's,
 * which inherit the flag), for no throughput the benchmark could measure (docs/architecture.md, "Memory").
 * Young-generation collections without V8's helper threads (no parallel scavenge, array buffers swept by the
 * collecting thread): with a new space that small there are hundreds a second under writes, and each waited to
 * wake a sleeping helper; the benchmark's transfers went from about 1,075 to 1,210 a second.
 */
const LAUNCH_FLAGS = [
  '--max-semi-space-size=2',
  '--no-parallel-scavenge',
  '--no-concurrent-array-buffer-sweeping',
];

/**
 * Compiles and runs the bundle `file` (an absolute path); returns its exports. `cacheAtExit`: a bundle whose
 * command ends within the second (near-sandbox's `init`) writes its missing cache as the process exits instead.
 */
function loadBundle(file, { cacheAtExit = false } = {}) {
  // ASCII only (scripts/bundle-cli.mjs checks): latin1 gives V8 a one-byte string, half the memory of utf8's.
  const source = readFileSync(file, 'latin1');
  const bundleId = source.slice('// bundle '.length, source.indexOf('\n'));
  const header = `shadebox-v8cache ${bundleId} ${process.version} ${process.arch}\n`;
  const places = cachePlaces(file);
  const cachedData = readCache(places, header);
  const script = new vm.Script(source, { filename: file, cachedData });
  if (shouldWriteCache(cachedData !== undefined, script.cachedDataRejected === true, process.execArgv)) {
    if (cacheAtExit) process.once('exit', () => writeCache(script, places, header));
    else setTimeout(() => writeCache(script, places, header), WRITE_AFTER_MS).unref();
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}

/**
 * Whether a start writes the cache: when it found none made for this bundle, Node and architecture, or V8
 * rejected the one it found and this process runs under LAUNCH_FLAGS (a start under other flags keeps the cache
 * made under the sh line's).
 */
function shouldWriteCache(found, rejected, execArgv) {
  return !found || (rejected && LAUNCH_FLAGS.every((flag) => execArgv.includes(flag)));
}

/** Where the cache of `file` may be: beside it, then in the user's cache folder. */
function cachePlaces(file) {
  return [`${file}.v8cache`, join(homedir(), '.cache', 'shadebox', `${basename(file)}.v8cache`)];
}

function readCache(places, header) {
  for (const place of places) {
    let data;
    try {
      data = readFileSync(place);
    } catch {
      continue;
    }
    if (data.length > header.length && data.toString('latin1', 0, header.length) === header) {
      return data.subarray(header.length);
    }
  }
  return undefined;
}

function writeCache(script, places, header) {
  let data;
  try {
    data = script.createCachedData();
  } catch {
    return;
  }
  for (const place of places) {
    const temporary = `${place}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(place), { recursive: true });
      writeFileSync(temporary, Buffer.concat([Buffer.from(header, 'latin1'), data]));
      renameSync(temporary, place);
      return;
    } catch {
      rmSync(temporary, { force: true });
      // Not writable (an install owned by another user, a read-only file system): the next place.
    }
  }
}

module.exports = { loadBundle, shouldWriteCache, LAUNCH_FLAGS };

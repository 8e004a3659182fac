// Bundles the `shadebox` and `near-sandbox` executables into packages/cli/bundle/ (run by the root `prepare` and
// `build` scripts, after `tsc -b`), then runs each once so that it leaves V8's code cache beside its bundle.
//
// Why: resolving and loading the ~320 small ES modules of a `shadebox node` costs Node more than running them
// (about half of its start), and compiling them the rest. Each bundle is one CommonJS file holding the built entry
// and everything it imports from the workspace packages and their dependencies; bin/launch.js compiles it with
// `vm.Script` and V8's code cache (bin/code-cache.js), so a start neither resolves modules nor parses them.
//
// The file is the body of a CommonJS module wrapped as a function expression `(function (exports, require,
// module, __filename, __dirname) { ... })`, so the launcher compiles the file's text as it is (no copy of a
// megabyte string). It is ASCII only (esbuild escapes the rest; comments are dropped with the whitespace), so the
// launcher reads it as latin1 and V8 keeps one byte per character. Its first line is `// bundle <sha256>` of the
// rest: the code cache is kept only for the bundle it was made from.
//
// Left out of the bundles: lmdb (its native addon is found relative to its own package; a lazy stand-in, below,
// loads it on the first store opened on disk, so a `--memory` node never loads it). @shadebox/contracts is in,
// but reads its .wasm beside its own installed file, found with require.resolve. Nothing in a bundle is imported
// with import(): the bundle is a script, and V8 cannot call back into Node's module loader from a function that
// came from its code cache.
//
// The bundles sit one folder below packages/cli, as dist/ does, so the relative paths the code reads stay
// true: ../package.json (the CLI's version).
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(cli, 'bundle');

/** The executables: the bundle's name, the built module whose `main` it exports, the bin that runs it. */
export const BUNDLES = [
  { name: 'shadebox', entry: join(cli, 'dist', 'shadebox-main.js'), bin: join(cli, 'bin', 'shadebox.js') },
  {
    name: 'near-sandbox',
    entry: join(cli, 'dist', 'near-sandbox', 'main.js'),
    bin: join(cli, 'bin', 'near-sandbox.js'),
    // `run` always opens its home's LMDB store: lmdb's JavaScript is bundled (see lazyLmdbPlugin).
    lmdbBundled: true,
  },
  // `near-sandbox init` alone (bin/near-sandbox.js runs it first when its arguments hold `init`).
  {
    name: 'near-sandbox-init',
    entry: join(cli, 'dist', 'near-sandbox', 'init-main.js'),
    bin: join(cli, 'bin', 'near-sandbox.js'),
  },
];

// `import { ABORT, open } from 'lmdb'` (packages/node/src/store/lmdb-store.ts) becomes this module: lmdb and
// its dependencies (about 45 ms and a 16 MiB buffer) load when the first LMDB store opens. ABORT (what a
// transaction callback returns to abort) is a live binding, set then: the store uses it only once open.
// lmdb's msgpackr loads, as it is required, a second native addon (msgpackr-extract: node-gyp-build's search
// and a dlopen, about 3 ms of a `near-sandbox run`) that only speeds up decoding MessagePack strings; the store
// keeps binary values (packages/node/src/store/lmdb-store.ts), so msgpackr decodes nothing, and the require
// runs with MSGPACKR_NATIVE_ACCELERATION_DISABLED set (msgpackr's own switch), unset again after it unless the
// user had set it.
const LAZY_LMDB = `
let lmdb;
export let ABORT;
export function open(...args) {
  lmdb ??= requireLmdb();
  ABORT = lmdb.ABORT;
  return lmdb.open(...args);
}
function requireLmdb() {
  const name = 'MSGPACKR_NATIVE_ACCELERATION_DISABLED';
  if (process.env[name] !== undefined) return require('lmdb');
  process.env[name] = 'true';
  try {
    return require('lmdb');
  } finally {
    delete process.env[name];
  }
}
`;

// In the near-sandbox bundle (whose `run` always opens a store on disk), lmdb's JavaScript (its dist/index.cjs,
// msgpackr, ordered-binary, weak-lru-cache, extended-iterable: 174 KiB) is bundled too, behind the stand-in:
// require() of the installed files cost a `near-sandbox run` about 7 ms of CPU more (resolving packages,
// compiling files no code cache holds). `shadebox`, whose `node --memory` opens none, keeps the require and
// does not hold lmdb's source in memory. Its native addon stays where it is installed: the
// bundled index.cjs reads its own path as the installed lmdb's (resolved at run time, as the stand-in's require
// was), so node-gyp-build finds the addon beside it, and the packages it loads at run time
// (node-gyp-build-optional-packages, msgpackr-extract) are required from there.
const LMDB_FILE = 'require("node:module").createRequire(__filename).resolve("lmdb")';
const RUNTIME_REQUIRES_OF_LMDB = ['node-gyp-build-optional-packages', 'msgpackr-extract', 'bun:ffi'];

const lazyLmdbPlugin = (bundled) => ({
  name: 'lazy-lmdb',
  setup(build) {
    build.onResolve({ filter: /^lmdb$/ }, (args) =>
      args.namespace !== 'lazy-lmdb'
        ? { path: 'lmdb', namespace: 'lazy-lmdb' }
        : bundled
          ? undefined
          : { path: 'lmdb', external: true },
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-lmdb' }, () => ({
      contents: LAZY_LMDB,
      loader: 'js',
      resolveDir: join(cli, '..', 'node'),
    }));
    build.onLoad({ filter: /[\\/]lmdb[\\/]dist[\\/]index\.cjs$/ }, (args) => {
      let text = readFileSync(args.path, 'utf8').replaceAll('__filename', '__lmdb_file');
      for (const name of RUNTIME_REQUIRES_OF_LMDB) {
        text = text.replaceAll(`require('${name}')`, `__lmdb_require('${name}')`);
      }
      const head = `var __lmdb_file = ${LMDB_FILE}; var __lmdb_require = require("node:module").createRequire(__lmdb_file);\n`;
      return { contents: head + text, loader: 'js' };
    });
    build.onLoad({ filter: /[\\/]msgpackr[\\/]dist[\\/]node\.cjs$/ }, (args) => ({
      contents: `var __msgpackr_require = require("node:module").createRequire(require("node:module").createRequire(${LMDB_FILE}).resolve("msgpackr"));\n${readFileSync(args.path, 'utf8').replaceAll("require('msgpackr-extract')", "__msgpackr_require('msgpackr-extract')")}`,
      loader: 'js',
    }));
  },
});

// The curves and ML-DSA of @noble (each module exports one object: the curve) are loaded on first use: building
// them at start (their fields, generator tables, the BLS12-381 tower) took a tenth of a `shadebox node` start's
// CPU and about 2 MiB of heap, and an idle node verifies no secp256k1 or ML-DSA signature and runs no contract's
// crypto host functions (ed25519 keys and signatures go through node:crypto). So is pino (its function, called
// when a logger logs its first line at an enabled level: packages/node/src/logger.ts). Every import of one of
// these modules gets a stand-in whose export is a proxy: its first use requires the real module (bundled, so
// its initialisation runs then), and every call, property read, `in` and write goes to the real export.
const LAZY_CURVES = {
  '@noble/curves/secp256k1.js': ['secp256k1'],
  '@noble/curves/ed25519.js': ['ed25519'],
  '@noble/curves/nist.js': ['p256'],
  '@noble/curves/bn254.js': ['bn254'],
  '@noble/curves/bls12-381.js': ['bls12_381'],
  '@noble/post-quantum/ml-dsa.js': ['ml_dsa65'],
  pino: ['pino'],
};

function lazyCurveModule(specifier, names) {
  const lines = [
    'let real;',
    `const load = () => (real ??= require(${JSON.stringify(specifier)}));`,
    // An arrow function as the target: callable (pino), with no `prototype` of its own to pin.
    'const lazy = (name) => new Proxy(() => {}, {',
    '  apply: (_, self, args) => Reflect.apply(load()[name], self, args),',
    '  get: (_, key) => load()[name][key],',
    '  has: (_, key) => key in load()[name],',
    '  set: (_, key, value) => { load()[name][key] = value; return true; },',
    '});',
  ];
  for (const name of names) lines.push(`export const ${name} = lazy(${JSON.stringify(name)});`);
  return lines.join('\n');
}

const lazyCurvesPlugin = {
  name: 'lazy-curves',
  setup(build) {
    const filter = new RegExp(
      `^(${Object.keys(LAZY_CURVES)
        .map((s) => s.replace(/[./]/g, '\\$&'))
        .join('|')})$`,
    );
    build.onResolve({ filter }, (args) =>
      // The stand-in's own require of the module resolves as usual (and is bundled).
      args.namespace === 'lazy-curves'
        ? undefined
        : { path: args.path, namespace: 'lazy-curves', pluginData: { resolveDir: args.resolveDir } },
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-curves' }, (args) => ({
      contents: lazyCurveModule(args.path, LAZY_CURVES[args.path]),
      loader: 'js',
      resolveDir: args.pluginData.resolveDir,
    }));
  },
};

// The same for parts of the node an idle node does not run, each a module exporting functions (and constants):
// the crypto host functions (packages/node/src/vm/host-crypto/: alt_bn128, BLS12-381, ecrecover, ed25519 and
// p256 verification, which read their curves at their own top level), the VM (`runContract`: the host functions,
// the Wasm instance's imports) and the contract preparation (`prepareContract`: the Wasm parser, the gas
// instrumentation, the module emitter). The importer named here gets a stand-in of the module holding its
// constants (copied from the built module, read here) and, for each function, one that requires the real module
// on its first call and calls it: a node loads the VM on its first contract call or deployment, not at start.
const LAZY_FUNCTION_MODULES = [
  {
    importer: /[\\/]vm[\\/]host-crypto[\\/]index\.js$/,
    specifier: /^\.\/(alt-bn128|bls12-381|ecrecover|ed25519-verify|p256-verify)\.js$/,
  },
  {
    importer: /[\\/]runtime[\\/](actions[\\/]function-call|state-viewer[\\/]call-function)\.js$/,
    specifier: /^\.\.\/\.\.\/vm\/run-contract\.js$/,
  },
  { importer: /[\\/]vm[\\/]contract-cache\.js$/, specifier: /^\.\/prepare\/prepare-contract\.js$/ },
];

async function lazyFunctionsModule(file) {
  const real = await import(pathToFileURL(file).href);
  const lines = ['let real;', `const load = () => (real ??= require(${JSON.stringify(file)}));`];
  for (const [name, value] of Object.entries(real)) {
    if (typeof value === 'function') {
      lines.push(`export function ${name}(...args) { return load().${name}(...args); }`);
    } else if (['number', 'string', 'boolean'].includes(typeof value)) {
      lines.push(`export const ${name} = ${JSON.stringify(value)};`);
    } else {
      throw new Error(
        `bundle-cli: ${file} exports ${name}, neither a function nor a constant: it cannot load lazily`,
      );
    }
  }
  return lines.join('\n');
}

const lazyFunctionsPlugin = {
  name: 'lazy-functions',
  setup(build) {
    const filter = new RegExp(LAZY_FUNCTION_MODULES.map(({ specifier }) => specifier.source).join('|'));
    build.onResolve({ filter }, (args) =>
      LAZY_FUNCTION_MODULES.some((m) => m.importer.test(args.importer) && m.specifier.test(args.path))
        ? { path: join(args.resolveDir, args.path), namespace: 'lazy-functions' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-functions' }, async (args) => ({
      contents: await lazyFunctionsModule(args.path),
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

// @shadebox/contracts finds its build/*.wasm from its own import.meta.url: the installed file's, not the bundle's.
const contractsBesideTheirFiles = {
  name: 'contracts-beside-their-files',
  setup(build) {
    build.onLoad({ filter: /[\\/]contracts[\\/]index\.js$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll(
        'import.meta.url',
        'require("node:url").pathToFileURL(require("node:module").createRequire(__filename).resolve("@shadebox/contracts")).href',
      ),
      loader: 'js',
    }));
  },
};

/**
 * esbuild's options for every file of bundle/: one CommonJS file, ASCII, lmdb loaded lazily (its JavaScript
 * bundled when `lmdbBundled`).
 */
const commonJsBundle = ({ lmdbBundled = false } = {}) => ({
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  charset: 'ascii',
  minifyWhitespace: true,
  plugins: [lazyLmdbPlugin(lmdbBundled), lazyCurvesPlugin, lazyFunctionsPlugin, contractsBesideTheirFiles],
  // ES modules read import.meta.url; in the bundle it is the bundle's own URL.
  define: { 'import.meta.url': '__bundle_url' },
  banner: { js: 'var __bundle_url = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: 'warning',
});

const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {';
const WRAPPER_TAIL = '\n})';

/**
 * The bundle of one built module as bin/run-bundle.js loads it (the body wrapped as a function, without the id
 * line), made with the options of every file of bundle/; for tests of what the bundling changes.
 */
export async function bundleText(entry, options = {}) {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({ ...commonJsBundle(options), entryPoints: [entry], write: false });
  return `${WRAPPER_HEAD}\n${result.outputFiles[0].text}${WRAPPER_TAIL}\n`;
}

export async function bundle({ train = true } = {}) {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    // Without esbuild (a production install), the bins run dist/ as it is.
    console.error('bundle-cli: esbuild is not installed; shadebox and near-sandbox will run unbundled');
    return false;
  }
  for (const { entry } of BUNDLES) {
    if (!existsSync(entry)) {
      console.error(`bundle-cli: ${entry} is missing: run tsc -b first`);
      process.exitCode = 1;
      return false;
    }
  }
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  // The bundles are CommonJS bodies (bin/launch.js runs them); this keeps Node from taking them for ES modules.
  writeFileSync(join(out, 'package.json'), '{ "type": "commonjs" }\n');
  for (const { name, entry, lmdbBundled } of BUNDLES) {
    const result = await esbuild.build({
      ...commonJsBundle({ lmdbBundled }),
      entryPoints: [entry],
      write: false,
    });
    const code = result.outputFiles[0].text;
    if (/\bimport\(/.test(code)) throw new Error(`bundle-cli: ${name}'s bundle still calls import()`);
    const body = `${WRAPPER_HEAD}\n${code}${WRAPPER_TAIL}\n`;
    const id = createHash('sha256').update(body).digest('hex');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the check is for ASCII
    if (/[^\x00-\x7f]/.test(body)) throw new Error(`bundle-cli: ${name}'s bundle is not ASCII`);
    writeFileSync(join(out, `${name}.js`), `// bundle ${id}\n${body}`);
  }
  await bundleViewWorker(esbuild);
  if (train) await trainCodeCaches();
  return true;
}

/**
 * The view worker (packages/node/src/rpc/view-worker.ts) as bundle/view-worker.js, a plain CommonJS file: the
 * node bundled in `shadebox.js` finds its worker beside its own file (`./view-worker.js` from its URL), so
 * view calls use worker threads from the bundle as they do from dist/.
 */
async function bundleViewWorker(esbuild) {
  const entry = join(cli, '..', 'node', 'dist', 'rpc', 'view-worker.js');
  if (!existsSync(entry)) return;
  await esbuild.build({ ...commonJsBundle(), entryPoints: [entry], outfile: join(out, 'view-worker.js') });
}

/**
 * Runs each executable once, as a user would, so that it writes its code cache (bin/run-bundle.js: a run that
 * finds none writes one a second after it started, with the functions its start compiled; `near-sandbox init`,
 * which ends sooner, as it exits). Failing here only costs the first real run the cache: it writes one itself.
 */
async function trainCodeCaches() {
  // Under the node flags of the executables' sh line: V8 rejects a cache made under other flags.
  const { LAUNCH_FLAGS } = createRequire(import.meta.url)('../bin/run-bundle.js');
  const home = mkdtempSync(join(tmpdir(), 'shadebox-bundle-'));
  const env = { ...process.env, SHADEBOX_LOG: 'silent' };
  delete env.SHADEBOX_FROM_SOURCE;
  try {
    await runUntilCached(
      'shadebox',
      [...LAUNCH_FLAGS, BUNDLES[0].bin, 'node', '--memory', '--rpc-port', '0', '--json'],
      env,
    );
    execFileSync(
      process.execPath,
      [...LAUNCH_FLAGS, BUNDLES[1].bin, '--home', join(home, 'sandbox'), 'init'],
      {
        env,
        stdio: 'ignore',
      },
    );
    await runUntilCached(
      'near-sandbox',
      [...LAUNCH_FLAGS, BUNDLES[1].bin, '--home', join(home, 'sandbox'), 'run', '--rpc-addr', '127.0.0.1:0'],
      env,
    );
  } catch (error) {
    console.error(`bundle-cli: no code cache made (${error.message}); the first run makes it`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Starts a long-running command and stops it (SIGTERM) once its code cache is written; 60 s at most. */
function runUntilCached(name, args, env) {
  const cache = join(out, `${name}.js.v8cache`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const started = Date.now();
    const poll = setInterval(() => {
      if (existsSync(cache)) {
        clearInterval(poll);
        child.kill('SIGTERM');
      } else if (Date.now() - started > 60_000) {
        clearInterval(poll);
        child.kill('SIGKILL');
      }
    }, 50);
    child.on('exit', (code, signal) => {
      clearInterval(poll);
      if (existsSync(cache)) resolve();
      else reject(new Error(`${name} exited (${signal ?? code}) without one: ${stderr.trim().slice(-300)}`));
    });
  });
}

/**
 * `node scripts/bundle-cli.mjs [--quiet] [--if-stale]`: bundles, trains, and says what it made. With --if-stale,
 * only when a bundle is missing or older than the build (bin/launch.js's rule; `npm test` runs `tsc -b` first).
 */
export async function main() {
  const start = Date.now();
  if (process.argv.includes('--if-stale') && (await bundlesFresh())) return;
  if (await bundle()) {
    const sizes = BUNDLES.map(({ name }) => {
      const kib = (file) =>
        existsSync(file) ? `${Math.round(readFileSync(file).length / 1024)} KiB` : 'none';
      return `${name} ${kib(join(out, `${name}.js`))} (code cache ${kib(join(out, `${name}.js.v8cache`))})`;
    });
    if (!process.argv.includes('--quiet')) {
      console.error(`bundle-cli: ${sizes.join(', ')} in ${Date.now() - start} ms`);
    }
  }
}

/** Whether every bundle exists and is at least as new as the build (bin/launch.js's rule). */
export async function bundlesFresh() {
  const { default: launch } = await import('../bin/launch.js');
  return (
    launch.isFreshBundle('../bundle/shadebox.js', '../dist/main.js') &&
    launch.isFreshBundle('../bundle/near-sandbox.js', '../dist/near-sandbox/entry.js') &&
    launch.isFreshBundle('../bundle/near-sandbox-init.js', '../dist/near-sandbox/entry.js')
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();

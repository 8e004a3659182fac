// Runs one of the CLI's executables: its bundle (bundle/, made from the build by scripts/bundle-cli.mjs, which the
// root `prepare` script runs on `npm install` and `npm ci`, run with V8's code cache by run-bundle.js) while it is
// at least as new as the build; else the built entry (dist/, written by `tsc -b`); or, when that build is missing (installed with
// --ignore-scripts, or a build that failed) or SHADEBOX_FROM_SOURCE=1 is set, the TypeScript sources in this
// same process: tsx compiles them, and a resolve hook adds the `source` export condition so that the
// workspace packages (@shadebox/node, @shadebox/primitives) resolve to their src/ too, as
// `node --conditions=source` would.
//
// The files of bin/ are CommonJS (bin/package.json): Node loads them without starting its ES module loader.
const { existsSync, statSync } = require('node:fs');
const { register } = require('node:module');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { loadBundle } = require('./run-bundle.js');

/**
 * @param {string} name the executable, for messages
 * @param {string} built the built entry, relative to this folder (`../dist/main.js`)
 * @param {string} source the TypeScript entry, relative to this folder (`../src/main.ts`)
 * @param {string} [bundle] a bundle of the built entry (packages/cli/scripts/bundle-cli.mjs), exporting its
 *   `main`, run instead of it when it is at least as new
 * @param {{ bundle: string, when: (argv: string[]) => boolean }} [small] a smaller bundle tried first when
 *   `when(argv)`: its `main` returns true when it ran the command, false when it left it to `bundle`
 */
async function launch(name, built, source, bundle, small) {
  const fromSource = process.env.SHADEBOX_FROM_SOURCE === '1';
  if (!fromSource && bundle !== undefined && wantsBundle() && isFreshBundle(bundle, built)) {
    const argv = process.argv.slice(2);
    if (small?.when(argv) && isFreshBundle(small.bundle, built)) {
      if (await loadBundle(join(__dirname, small.bundle), { cacheAtExit: true }).main(argv)) return;
    }
    await loadBundle(join(__dirname, bundle)).main();
  } else if (!fromSource && isBuilt(built)) {
    await import(pathToFileURL(join(__dirname, built)).href);
  } else {
    await runFromSource(name, source, fromSource);
  }
}

/**
 * SHADEBOX_BUNDLE=0 runs the build instead of the bundle, and so does a process under `node --cpu-prof`: a CPU
 * profile names each function's own file and line only in the build (in the bundle, one file on a few lines).
 */
function wantsBundle() {
  return (
    process.env.SHADEBOX_BUNDLE !== '0' && !process.execArgv.some((flag) => flag.startsWith('--cpu-prof'))
  );
}

/** The workspace packages a bundle is made of (their builds' .tsbuildinfo say when they were last built). */
const BUNDLED_PACKAGES = [
  '@shadebox/node',
  '@shadebox/primitives',
  '@shadebox/http-fast-path',
  '@shadebox/errors',
  '@shadebox/near-client',
  '@shadebox/mpc',
  '@shadebox/agent-api',
];

/**
 * The bundle exists and was made after the current build: not older than the built entry, nor than the last
 * `tsc -b` of the CLI or of a package it bundles (a later build makes it stale until it is bundled again).
 */
function isFreshBundle(bundle, built) {
  try {
    const bundled = statSync(join(__dirname, bundle)).mtimeMs;
    const builds = [join(__dirname, built), join(__dirname, '../dist/.tsbuildinfo')];
    // The packages sit beside this one (packages/* in the repository, node_modules/@shadebox/* installed);
    // not resolved by name, which under the `source` condition would find their src/.
    for (const name of BUNDLED_PACKAGES) {
      builds.push(join(__dirname, `../../${name.slice('@shadebox/'.length)}/dist/.tsbuildinfo`));
    }
    return builds.every((file) => !existsSync(file) || statSync(file).mtimeMs <= bundled);
  } catch {
    return false;
  }
}

/** The entry and the workspace packages it imports are all built. */
function isBuilt(built) {
  const files = [join(__dirname, built)];
  try {
    files.push(require.resolve('@shadebox/node'), require.resolve('@shadebox/primitives'));
  } catch {
    return false;
  }
  return files.every((file) => existsSync(file));
}

async function runFromSource(name, source, fromSource) {
  let tsxApi;
  try {
    tsxApi = await import('tsx/esm/api');
  } catch {
    process.stderr.write(
      `${name}: the CLI is not built (packages/cli/dist is missing) and tsx, needed to run it from source, ` +
        "is not installed: run 'npm install' (or 'npm run build') at the repository root\n",
    );
    process.exit(1);
  }
  if (!fromSource) {
    process.stderr.write(
      `${name}: not built, running from source (slower start); 'npm run build' builds it\n`,
    );
  }
  tsxApi.register();
  // Registered after tsx, so it runs first and hands the extra condition down to tsx and node's resolver.
  const addSourceCondition =
    'export async function resolve(specifier, context, next) {' +
    " return next(specifier, { ...context, conditions: [...context.conditions, 'source'] }); }";
  register(`data:text/javascript,${encodeURIComponent(addSourceCondition)}`);
  await import(pathToFileURL(join(__dirname, source)).href);
}

module.exports = { launch, isFreshBundle };

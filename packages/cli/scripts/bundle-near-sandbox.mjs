// Bundles the `near-sandbox` executable into packages/cli/bundle/ (run by the root `prepare` and `build`
// scripts, after `tsc -b`). Its start is measured (init + run to the first answered GET /status): resolving
// and loading the hundreds of small modules of the node costs Node more than running them, so the built
// entry (dist/near-sandbox/entry.js) and everything it imports from the workspace packages become a few
// files. Each command's code stays in its own chunk, loaded when that command runs. lmdb stays external (its
// native addon is found relative to its own package), loaded from node_modules.
//
// The bundle sits one folder below packages/cli, as dist/ does, so the relative paths the code reads stay
// true: ../package.json (the CLI's version). The protocol parameters are code, bundled with the rest.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(cli, 'bundle');
const entry = join(cli, 'dist', 'near-sandbox', 'entry.js');

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  // Without esbuild (a production install), bin/near-sandbox.js runs dist/ as it is.
  console.error('bundle-near-sandbox: esbuild is not installed; near-sandbox will run unbundled');
  process.exit(0);
}
if (!existsSync(entry)) {
  console.error(`bundle-near-sandbox: ${entry} is missing: run tsc -b first`);
  process.exit(1);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await esbuild.build({
  entryPoints: { 'near-sandbox': entry },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['lmdb'],
  // Some bundled dependencies are CommonJS and call require() for Node built-ins.
  banner: {
    js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
  },
  logLevel: 'warning',
});

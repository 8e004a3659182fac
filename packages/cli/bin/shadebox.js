#!/usr/bin/env node
// The `shadebox` executable.
//
// It runs the built CLI (dist/main.js, written by `tsc -b`, which the root `prepare` script runs on
// `npm install` and `npm ci`). When that build is missing (installed with --ignore-scripts, or a build that
// failed) or SHADEBOX_FROM_SOURCE=1 is set, it runs the TypeScript sources instead, in this same process:
// tsx compiles them, and a resolve hook adds the `source` export condition so that the workspace packages
// (@shadebox/node, @shadebox/primitives) resolve to their src/ too, as `node --conditions=source` would.
import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { fileURLToPath } from 'node:url';

const fromSource = process.env.SHADEBOX_FROM_SOURCE === '1';

if (!fromSource && isBuilt()) {
  await import('../dist/main.js');
} else {
  await runFromSource();
}

/** The CLI and the workspace packages it imports are all built. */
function isBuilt() {
  const files = [new URL('../dist/main.js', import.meta.url).href];
  try {
    files.push(import.meta.resolve('@shadebox/node'), import.meta.resolve('@shadebox/primitives'));
  } catch {
    return false;
  }
  return files.every((url) => existsSync(fileURLToPath(url)));
}

async function runFromSource() {
  let tsxApi;
  try {
    tsxApi = await import('tsx/esm/api');
  } catch {
    process.stderr.write(
      'shadebox: the CLI is not built (packages/cli/dist is missing) and tsx, needed to run it from source, ' +
        "is not installed: run 'npm install' (or 'npm run build') at the repository root\n",
    );
    process.exit(1);
  }
  if (!fromSource) {
    process.stderr.write(
      "shadebox: not built, running from source (slower start); 'npm run build' builds it\n",
    );
  }
  tsxApi.register();
  // Registered after tsx, so it runs first and hands the extra condition down to tsx and node's resolver.
  const addSourceCondition =
    'export async function resolve(specifier, context, next) {' +
    " return next(specifier, { ...context, conditions: [...context.conditions, 'source'] }); }";
  register(`data:text/javascript,${encodeURIComponent(addSourceCondition)}`);
  await import('../src/main.ts');
}

// scripts/check-layers.mjs: finds upward imports in the node, deep imports and forbidden package imports in a
// small tree written for the test, accepts what the rules allow, and passes on the repo itself.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkLayers, importsOf } from '../scripts/check-layers.mjs';

interface Violation {
  path: string;
  line: number;
  rule: string;
  message: string;
  specifier: string;
}

const REPO = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = join(REPO, 'scripts', 'check-layers.mjs');

const EXPORTS = { '.': { source: './src/index.ts', default: './dist/index.js' } };
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'check-layers-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  for (const name of ['node', 'mpc', 'agent-api', 'client', 'primitives', 'errors', 'cli']) {
    files[`packages/${name}/package.json`] = JSON.stringify({ name: `@shadebox/${name}`, exports: EXPORTS });
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const found = (root: string) =>
  (checkLayers(root).violations as Violation[]).map((v) => `${v.path}:${v.line} ${v.rule} ${v.specifier}`);

describe('check-layers', () => {
  it('reads static, type-only, re-exported, dynamic and type-position imports with their lines', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "export * from './c.js';",
      'const d = await import("./d.js");',
      "type E = typeof import('./e.js');",
      'const s = \'import x from "./not-an-import.js"\';',
    ].join('\n');
    assert.deepEqual(importsOf('x.ts', text), [
      { specifier: './a.js', line: 1 },
      { specifier: './b.js', line: 2 },
      { specifier: './c.js', line: 3 },
      { specifier: './d.js', line: 4 },
      { specifier: './e.js', line: 5 },
    ]);
  });

  it('accepts imports that follow the layers and the package rules', () => {
    const root = tree({
      'packages/node/src/config/fees.ts': 'export const f = 1;\n',
      'packages/node/src/vm/vm-logic.ts': "import { f } from '../config/fees.js';\nexport const v = f;\n",
      'packages/node/src/runtime/apply.ts': "import { v } from '../vm/vm-logic.js';\nexport const r = v;\n",
      'packages/node/src/rpc/query.ts':
        "import { r } from '../runtime/apply.js';\nimport '@shadebox/primitives';\n",
      'packages/node/src/start-node.ts': "import './rpc/query.js';\nimport './chain/chain.js';\n",
      'packages/mpc/src/responder.test.ts': "import { startNode } from '@shadebox/node';\n",
      'packages/primitives/src/index.ts': "import { ShadeboxError } from '@shadebox/errors';\n",
      'test/e2e.test.ts': "import '@shadebox/node';\nimport '../packages/cli/test-support/cli-process.js';\n",
    });
    assert.deepEqual(found(root), []);
  });

  it('reports each upward import, deep import and forbidden package with file:line and its rule', () => {
    const root = tree({
      'packages/node/src/vm/vm-logic.ts': "// fees\nimport type { Fee } from '../runtime/fees.js';\n",
      'packages/node/src/state/x.ts': "import { startNode } from '../start-node.js';\n",
      'packages/node/src/chain/y.ts': "export { query } from '../rpc/methods/query.js';\n",
      'packages/mpc/src/responder.ts': "import { startNode } from '@shadebox/node';\n",
      'packages/agent-api/src/chain.ts': "import { Chain } from '@shadebox/node/src/chain/chain.js';\n",
      'packages/client/src/c.ts': "import { base58 } from '../../primitives/src/base58.js';\n",
      'packages/primitives/src/d.ts': "export const load = () => import('@shadebox/mpc');\n",
      'test/e2e.test.ts': "\n\nimport { Chain } from '../packages/node/src/chain/chain.js';\n",
    });
    assert.deepEqual(found(root).sort(), [
      'packages/agent-api/src/chain.ts:1 deep import @shadebox/node/src/chain/chain.js',
      'packages/agent-api/src/chain.ts:1 package dependencies @shadebox/node/src/chain/chain.js',
      'packages/client/src/c.ts:1 deep import ../../primitives/src/base58.js',
      'packages/mpc/src/responder.ts:1 package dependencies @shadebox/node',
      'packages/node/src/chain/y.ts:1 node layers ../rpc/methods/query.js',
      'packages/node/src/state/x.ts:1 node layers ../start-node.js',
      'packages/node/src/vm/vm-logic.ts:2 node layers ../runtime/fees.js',
      'packages/primitives/src/d.ts:1 package dependencies @shadebox/mpc',
      'test/e2e.test.ts:3 deep import ../packages/node/src/chain/chain.js',
    ]);

    const run = spawnSync(process.execPath, [SCRIPT, '--root', root], { encoding: 'utf8' });
    assert.equal(run.status, 1);
    assert.match(
      run.stderr,
      /^packages\/node\/src\/vm\/vm-logic\.ts:2: \[node layers\] vm may not import runtime \(order: config -> store -> trie -> state -> vm -> runtime -> chain -> rpc\) \('\.\.\/runtime\/fees\.js'\)$/m,
    );
    assert.match(run.stderr, /^check-layers: 9 violation\(s\) in \d+ files/m);
  });

  it('passes on the repository', () => {
    assert.deepEqual(found(REPO), []);
    const run = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^check-layers: \d+ imports in \d+ files follow the layers$/m);
  });
});

import assert from 'node:assert/strict';
import { basename, dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { sourcesOf, transpiledPackages } from '../scripts/prepare.mjs';

/** The files `tsc -b` compiles for the project in `dir` (its tsconfig's include and exclude). */
function tscFiles(dir: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(dir, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(String(d.messageText)),
    },
  );
  assert.ok(config, dir);
  return config.fileNames.filter((file) => !file.endsWith('.d.ts'));
}

describe("scripts/prepare.mjs (npm install's build)", () => {
  const packages: string[] = transpiledPackages();

  it("transpiles the packages tsc -b emits JavaScript for, and not the explorer's declarations", () => {
    const names = packages.map((dir) => basename(dir)).sort();
    assert.ok(names.includes('node') && names.includes('cli') && names.includes('primitives'), names.join());
    assert.ok(!names.includes('explorer'), 'the explorer has its own build; tsc -b only writes its types');
  });

  it('transpiles exactly the files tsc -b compiles, in every package', () => {
    for (const dir of packages) {
      const ours = (sourcesOf(dir) as string[]).sort();
      const tsc = tscFiles(dir).sort();
      assert.deepEqual(ours, tsc, dirname(join(dir, 'x')));
    }
  });
});

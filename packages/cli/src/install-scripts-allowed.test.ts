/**
 * A quiet `npm install`: npm 11 runs no dependency's install script unless the root package.json's `allowScripts`
 * allows it, and warns "not yet covered by allowScripts" about each one it names neither way. Every package the
 * lock file installs with an install script (`hasInstallScript: true`) must therefore be named there (allowed or
 * denied; docs/clients.md says why each is denied). Reads the two files only.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const root = new URL('../../../', import.meta.url);
const readJson = (file: string) => JSON.parse(readFileSync(new URL(file, root), 'utf8'));

interface LockEntry {
  name?: string;
  version?: string;
  hasInstallScript?: boolean;
}

/** The package name of an `allowScripts` key: `lmdb`, `lmdb@3.5.6`, `@scope/name@^1`. */
function nameOf(spec: string): string {
  const at = spec.indexOf('@', 1);
  return at === -1 ? spec : spec.slice(0, at);
}

/** The installed packages with an install script, as `name@version`, from package-lock.json. */
function withInstallScripts(lock: {
  packages: Record<string, LockEntry>;
}): Array<{ name: string; id: string }> {
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path.includes('node_modules/') && entry.hasInstallScript === true)
    .map(([path, entry]) => {
      const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
      return { name, id: `${name}@${entry.version} (${path})` };
    });
}

describe('allowScripts covers every install script of the lock file', () => {
  const manifest = readJson('package.json') as { allowScripts?: Record<string, unknown> };
  const lock = readJson('package-lock.json') as { packages: Record<string, LockEntry> };

  it('the lock file is read: it has packages with install scripts', () => {
    // esbuild (a build tool of this repository) has one; if none were found the check below would be empty.
    assert.ok(
      withInstallScripts(lock).some((p) => p.name === 'esbuild'),
      'esbuild has an install script',
    );
  });

  it('each of them is named in allowScripts, with true or false', () => {
    const allowScripts = manifest.allowScripts ?? {};
    for (const [spec, value] of Object.entries(allowScripts))
      assert.equal(typeof value, 'boolean', `allowScripts["${spec}"] is true or false`);
    const named = new Set(Object.keys(allowScripts).map(nameOf));
    const uncovered = withInstallScripts(lock).filter((p) => !named.has(p.name));
    assert.deepEqual(
      uncovered.map((p) => p.id),
      [],
      'npm install would warn that these are not yet covered by allowScripts',
    );
  });
});

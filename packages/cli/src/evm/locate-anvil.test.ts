/** Unit tests of where `shadebox up` finds anvil: ANVIL_BIN alone when set, then the platform package, then PATH. */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { anvilPackageName, locateAnvil } from './locate-anvil.js';

const dir = mkdtempSync(join(tmpdir(), 'shadebox-locate-anvil-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function executable(path: string, mode = 0o755): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, mode);
  return path;
}

/** A folder laid out as an install: node_modules/@foundry-rs/anvil-linux-amd64 with bin/anvil. */
const project = join(dir, 'project');
const packaged = executable(join(project, 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil'));
writeFileSync(
  join(project, 'node_modules/@foundry-rs/anvil-linux-amd64/package.json'),
  '{"name":"@foundry-rs/anvil-linux-amd64","version":"1.7.1"}',
);
const resolveFrom = pathToFileURL(join(project, 'index.js')).href;
const onPath = executable(join(dir, 'bin', 'anvil'));
const linux = { platform: 'linux' as const, arch: 'x64' };

describe('locateAnvil', () => {
  it('names the platform packages Foundry publishes', () => {
    assert.equal(anvilPackageName('linux', 'x64'), '@foundry-rs/anvil-linux-amd64');
    assert.equal(anvilPackageName('linux', 'arm64'), '@foundry-rs/anvil-linux-arm64');
    assert.equal(anvilPackageName('darwin', 'x64'), '@foundry-rs/anvil-darwin-amd64');
    assert.equal(anvilPackageName('darwin', 'arm64'), '@foundry-rs/anvil-darwin-arm64');
    assert.equal(anvilPackageName('win32', 'x64'), '@foundry-rs/anvil-win32-amd64');
    assert.equal(anvilPackageName('freebsd', 'x64'), undefined);
  });

  it('ANVIL_BIN first, then the platform package, then PATH', () => {
    const env = { ANVIL_BIN: onPath, PATH: join(dir, 'bin') };
    assert.deepEqual(locateAnvil({ env, resolveFrom, ...linux }), {
      found: true,
      path: onPath,
      how: 'ANVIL_BIN',
    });
    assert.deepEqual(locateAnvil({ env: { PATH: join(dir, 'bin') }, resolveFrom, ...linux }), {
      found: true,
      path: packaged,
      how: '@foundry-rs/anvil-linux-amd64',
    });
    const elsewhere = pathToFileURL(join(dir, 'elsewhere', 'index.js')).href;
    assert.deepEqual(
      locateAnvil({ env: { PATH: `/nonexistent:${join(dir, 'bin')}` }, resolveFrom: elsewhere, ...linux }),
      {
        found: true,
        path: onPath,
        how: 'PATH',
      },
    );
  });

  it('an ANVIL_BIN that is missing or not executable is reported, not skipped', () => {
    for (const bad of [join(dir, 'nope'), executable(join(dir, 'plain', 'anvil'), 0o644), dir]) {
      const found = locateAnvil({ env: { ANVIL_BIN: bad, PATH: join(dir, 'bin') }, resolveFrom, ...linux });
      assert.deepEqual(found, {
        found: false,
        reason: `ANVIL_BIN is ${bad}, which is not an executable file`,
        advice: 'point ANVIL_BIN at an anvil binary, or unset it to use @foundry-rs/anvil-linux-amd64',
      });
    }
  });

  it('nowhere: says it is not installed and how to install it', () => {
    const elsewhere = pathToFileURL(join(dir, 'elsewhere', 'index.js')).href;
    assert.deepEqual(locateAnvil({ env: { PATH: '' }, resolveFrom: elsewhere, ...linux }), {
      found: false,
      reason:
        'anvil is not installed (@foundry-rs/anvil-linux-amd64 is not in node_modules, no anvil on PATH)',
      advice:
        "run 'npm install' with optional dependencies (or 'npm install @foundry-rs/anvil-linux-amd64'), or set ANVIL_BIN to an anvil binary",
    });
    const bsd = locateAnvil({ env: {}, resolveFrom: elsewhere, platform: 'freebsd', arch: 'x64' });
    assert.equal(bsd.found, false);
    assert.match((bsd as { advice: string }).advice, /install Foundry \(https:\/\/getfoundry\.sh\)/);
  });
});

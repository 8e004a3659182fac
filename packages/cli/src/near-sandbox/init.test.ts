import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { KEY_TYPE_ED25519, KeyPair } from '@shadebox/primitives';
import { tempDir } from '../../test-support/cli-in-process.js';
import { UsageError } from '../usage-error.js';
import { initCommand, randomChainId, seedBytes } from './init.js';
import { parseNeardArgs } from './neard-args.js';

describe('near-sandbox init', () => {
  test("chain ids as neard's random_chain_id: test-chain- and 5 letters or digits", () => {
    const ids = new Set(Array.from({ length: 20 }, randomChainId));
    for (const id of ids) assert.match(id, /^test-chain-[A-Za-z0-9]{5}$/);
    assert.ok(ids.size > 1);
  });

  test("--test-seed: the seed's bytes padded with spaces to 32 (nearcore SecretKey::from_seed)", () => {
    assert.deepEqual(Buffer.from(seedBytes('test.near')).toString(), `test.near${' '.repeat(23)}`);
    assert.equal(seedBytes('x'.repeat(40)).length, 32);
    const a = KeyPair.fromSecretBytes(KEY_TYPE_ED25519, seedBytes('alice'));
    const b = KeyPair.fromSecretBytes(KEY_TYPE_ED25519, seedBytes('alice'));
    assert.equal(a.toString(), b.toString());
  });

  test('--protocol-version 87 writes a genesis of protocol 87; 88 is a usage error and writes nothing', async () => {
    const home = join(await tempDir(), 'home');
    const code = await initCommand(
      home,
      parseNeardArgs(['--home', home, 'init', '--protocol-version', '87']),
    );
    assert.equal(code, 0);
    const genesis = JSON.parse(await readFile(join(home, 'genesis.json'), 'utf8'));
    assert.equal(genesis.protocol_version, 87);
    const other = join(await tempDir(), 'home');
    await assert.rejects(
      initCommand(other, parseNeardArgs(['--home', other, 'init', '--protocol-version=88'])),
      (error: unknown) =>
        error instanceof UsageError &&
        /protocol version 88 is not supported: this node runs protocol versions 83 to 87/.test(error.message),
    );
    assert.equal(existsSync(join(other, 'genesis.json')), false);
  });
});

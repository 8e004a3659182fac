import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { KEY_TYPE_ED25519, KeyPair } from '@shadebox/primitives';
import { randomChainId, seedBytes } from './init.js';

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
});

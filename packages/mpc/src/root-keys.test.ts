import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { inspect } from 'node:util';
import {
  bytesToBigIntLE,
  bytesToHex,
  ED25519_ORDER,
  ed25519PublicKeyOfScalar,
  najToEd25519PublicKey,
  najToSecp256k1PublicKey,
  secp256k1PublicKeyOf,
} from './derivation.js';
import { createRootKeys, loadOrCreateRootKeys, MPC_KEYS_FILE, RootKeys } from './root-keys.js';

const dirs: string[] = [];
function tempHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shadebox-mpc-'));
  dirs.push(dir);
  return dir;
}
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('root keys', () => {
  test('created once per home, 0600, and the same on the next load', () => {
    const home = tempHome();
    const first = loadOrCreateRootKeys(home);
    const path = join(home, MPC_KEYS_FILE);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const second = loadOrCreateRootKeys(home);
    assert.equal(second.secp256k1PublicKey, first.secp256k1PublicKey);
    assert.equal(second.ed25519PublicKey, first.ed25519PublicKey);
    assert.deepEqual(second.secp256k1SecretKey(), first.secp256k1SecretKey());
    assert.deepEqual(second.ed25519SecretScalar(), first.ed25519SecretScalar());

    const file = JSON.parse(readFileSync(path, 'utf8'));
    assert.deepEqual(Object.keys(file).sort(), [
      'ed25519_public_key',
      'ed25519_secret_scalar',
      'secp256k1_public_key',
      'secp256k1_secret_key',
    ]);
    assert.match(file.secp256k1_secret_key, /^[0-9a-f]{64}$/);
    assert.match(file.ed25519_secret_scalar, /^[0-9a-f]{64}$/);
    assert.equal(file.secp256k1_public_key, first.secp256k1PublicKey);
    assert.equal(file.ed25519_public_key, first.ed25519PublicKey);
    assert.ok(bytesToBigIntLE(Buffer.from(file.ed25519_secret_scalar, 'hex')) < ED25519_ORDER);
    // The public keys are those of the secrets.
    assert.deepEqual(
      najToSecp256k1PublicKey(file.secp256k1_public_key),
      secp256k1PublicKeyOf(Buffer.from(file.secp256k1_secret_key, 'hex')),
    );
    assert.deepEqual(
      najToEd25519PublicKey(file.ed25519_public_key),
      ed25519PublicKeyOfScalar(Uint8Array.from(Buffer.from(file.ed25519_secret_scalar, 'hex'))),
    );
    // Another home gets other keys.
    assert.notEqual(loadOrCreateRootKeys(tempHome()).secp256k1PublicKey, first.secp256k1PublicKey);
  });

  test('a key file readable by others is tightened to 0600', () => {
    const home = tempHome();
    const keys = loadOrCreateRootKeys(home);
    const path = join(home, MPC_KEYS_FILE);
    chmodSync(path, 0o644);
    assert.equal(loadOrCreateRootKeys(home).ed25519PublicKey, keys.ed25519PublicKey);
    assert.equal(statSync(path).mode & 0o777, 0o600);
  });

  test('a damaged or inconsistent file is an error, and no secret is in the message', () => {
    const home = tempHome();
    const path = join(home, MPC_KEYS_FILE);
    writeFileSync(path, '{not json', { mode: 0o600 });
    assert.throws(() => loadOrCreateRootKeys(home), /not valid JSON/);
    const a = createRootKeys().toFileJSON();
    const b = createRootKeys().toFileJSON();
    writeFileSync(path, JSON.stringify({ ...a, secp256k1_public_key: b.secp256k1_public_key }), {
      mode: 0o600,
    });
    assert.throws(
      () => loadOrCreateRootKeys(home),
      (err: Error) => /does not match/.test(err.message) && !err.message.includes(a.secp256k1_secret_key),
    );
    writeFileSync(path, JSON.stringify({ ...a, ed25519_secret_scalar: 'ff'.repeat(32) }), { mode: 0o600 });
    assert.throws(() => loadOrCreateRootKeys(home), /out of range/);
  });

  test('in-memory keys; secrets never in JSON, strings or inspect', () => {
    const keys = createRootKeys();
    const file = keys.toFileJSON();
    for (const shown of [
      JSON.stringify(keys),
      String(keys),
      inspect(keys),
      inspect({ keys }, { depth: 5 }),
    ]) {
      assert.ok(!shown.includes(file.secp256k1_secret_key));
      assert.ok(!shown.includes(file.ed25519_secret_scalar));
      assert.ok(shown.includes(keys.secp256k1PublicKey));
    }
    assert.deepEqual(keys.publicKeys(), {
      secp256k1: keys.secp256k1PublicKey,
      ed25519: keys.ed25519PublicKey,
    });
    assert.equal(keys.publicKey(1), keys.ed25519PublicKey);
    assert.equal(keys.secp256k1.publicKey, keys.secp256k1PublicKey);
    assert.equal(keys.ed25519.publicKey, keys.ed25519PublicKey);
    const again = RootKeys.fromJSONFile(file);
    assert.equal(bytesToHex(again.secp256k1SecretKey()), file.secp256k1_secret_key);
    // The accessors hand out copies.
    keys.secp256k1SecretKey().fill(0);
    assert.equal(bytesToHex(keys.secp256k1SecretKey()), file.secp256k1_secret_key);
  });

  test('from a seed: the documented formula, the same keys for the same seed, others for another', () => {
    // The formula of root-keys.ts, written out with node:crypto.
    const secret = BigInt(
      `0x${createHash('sha256').update('shadebox mpc root key:secp256k1:my seed:0', 'utf8').digest('hex')}`,
    );
    const wide = createHash('sha512').update('shadebox mpc root key:ed25519:my seed:0', 'utf8').digest();
    const scalar = BigInt(`0x${Buffer.from(wide).reverse().toString('hex')}`) % ED25519_ORDER;
    const keys = RootKeys.fromSeed('my seed');
    assert.equal(bytesToHex(keys.secp256k1SecretKey()), secret.toString(16).padStart(64, '0'));
    assert.equal(bytesToBigIntLE(keys.ed25519SecretScalar()), scalar);

    const again = createRootKeys({ seed: 'my seed' });
    assert.deepEqual(again.publicKeys(), keys.publicKeys());
    const other = createRootKeys({ seed: 'my seed ' });
    assert.notEqual(other.secp256k1PublicKey, keys.secp256k1PublicKey);
    assert.notEqual(other.ed25519PublicKey, keys.ed25519PublicKey);
    // Without a seed: random keys.
    assert.notEqual(createRootKeys().secp256k1PublicKey, createRootKeys().secp256k1PublicKey);
    assert.throws(() => RootKeys.fromSeed(''), /must not be empty/);
    // The default seed's keys, as docs/chain-signatures.md prints them.
    assert.deepEqual(RootKeys.fromSeed('shadebox').publicKeys(), {
      secp256k1:
        'secp256k1:57NHmMHdmiC9uBKjj8Nwg5EbEjmzeHs8Q1B298L4PppJ1XDDENyzHah8TiC6yvA7Qs9BjoovZczZ3vR1kGHcQbN4',
      ed25519: 'ed25519:F2BZwZ1bTvbC4KGw8wrKqqNSAjAJbZyHxRXE4NZq9eCS',
    });
  });

  test('a new home takes the seed; an existing home keeps its keys whatever the seed', () => {
    const home = tempHome();
    const seeded = loadOrCreateRootKeys(home, { seed: 'shadebox' });
    assert.deepEqual(seeded.publicKeys(), RootKeys.fromSeed('shadebox').publicKeys());
    assert.deepEqual(loadOrCreateRootKeys(home, { seed: 'another' }).publicKeys(), seeded.publicKeys());
    const random = tempHome();
    const kept = loadOrCreateRootKeys(random);
    assert.deepEqual(loadOrCreateRootKeys(random, { seed: 'shadebox' }).publicKeys(), kept.publicKeys());
  });
});

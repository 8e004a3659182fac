import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inspect } from 'node:util';
import { KeyPair as NearJsKeyPair, PublicKey as NearJsPublicKey } from '@near-js/crypto';
import { testRandom } from '../../../test/test-random.js';
import { base58Decode, base58Encode, utf8Encode } from './encoding.js';
import { InvalidPublicKeyError, InvalidSecretKeyError, InvalidSignatureError } from './errors.js';
import { sha256 } from './hash.js';
import { ethImplicitAccountId, nearImplicitAccountId } from './implicit-account-id.js';
import { KeyPair } from './key-pair.js';
import {
  isValidPublicKeyString,
  parsePublicKey,
  parseSignature,
  publicKeysEqual,
  publicKeyToString,
  signaturesEqual,
  signatureToString,
} from './keys.js';
import { KEY_TYPE_ED25519, KEY_TYPE_SECP256K1 } from './types.js';
import { verifySignature } from './verify-signature.js';

const rng = testRandom('packages/primitives/src/keys.test.ts');

// Vectors from nearcore's own tests: core/crypto/src/signature.rs (`test_json_serialize_ed25519`,
// `test_json_serialize_secp256k1`) and core/primitives/src/utils.rs (`test_derive_*_implicit_account_id`).
// nearcore's ed25519 `from_seed("test")` uses the seed "test" padded with spaces to 32 bytes.
const ED_SEED = utf8Encode('test'.padEnd(32, ' '));
const ED_PUBLIC = 'ed25519:DcA2MzgpJbrUATQLLceocVckhhAqrkingax4oJ9kZ847';
const ED_SECRET =
  'ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3';
const ED_SIG_OF_123 =
  'ed25519:3s1dvZdQtcAjBksMHFrysqvF63wnyMHPA4owNQmCJZ2EBakZEKdtMsLqrHdKWQjJbSRN6kRknN2WdwSBLWGCokXj';
const ED_IMPLICIT = 'bb4dc639b212e075a751685b26bdcea5920a504181ff2910e8549742127092a0';
const SECP_SECRET = 'secp256k1:X4ETFKtQkSGVoZEnkn7bZ3LyajJaK2b3eweXaKmynGx';
const SECP_PUBLIC =
  'secp256k1:5ftgm7wYK5gtVqq1kxMGy7gSudkrfYCbpsjL6sH1nwx2oj5NR2JktohjzB6fbEhhRERQpiwJcpwnQjxtoX3GS3cQ';
const SECP_SIG_OF_SHA256_123 =
  'secp256k1:5N5CB9H1dmB9yraLGCo4ZCQTcF24zj4v2NT14MHdH3aVhRoRXrX3AhprHr2w6iXNBZDmjMS1Ntzjzq8Bv6iBvwth6';
const SECP_IMPLICIT = '0x96791e923f8cf697ad9c3290f2c9059f0231b24c';

describe('nearcore key vectors', () => {
  it('ed25519: seed → public key, secret string and signature', () => {
    const kp = KeyPair.fromSecretBytes(KEY_TYPE_ED25519, ED_SEED);
    assert.equal(kp.publicKeyString, ED_PUBLIC);
    assert.equal(kp.toString(), ED_SECRET);
    assert.equal(signatureToString(kp.sign(utf8Encode('123'))), ED_SIG_OF_123);
    assert.equal(KeyPair.fromString(ED_SECRET).publicKeyString, ED_PUBLIC);
    assert.equal(nearImplicitAccountId(kp.publicKey), ED_IMPLICIT);
    assert.equal(nearImplicitAccountId(ED_PUBLIC), ED_IMPLICIT);
  });

  it('secp256k1: secret → public key, deterministic signature and ETH-implicit account', () => {
    const kp = KeyPair.fromString(SECP_SECRET);
    assert.equal(kp.publicKeyString, SECP_PUBLIC);
    assert.equal(kp.toString(), SECP_SECRET);
    const message = sha256(utf8Encode('123'));
    const sig = kp.sign(message);
    assert.equal(signatureToString(sig), SECP_SIG_OF_SHA256_123);
    assert.equal(verifySignature(message, sig, kp.publicKey), true);
    assert.equal(ethImplicitAccountId(kp.publicKey), SECP_IMPLICIT);
  });
});

describe('public key and signature strings', () => {
  it('round trip both key types', () => {
    for (const text of [ED_PUBLIC, SECP_PUBLIC]) assert.equal(publicKeyToString(parsePublicKey(text)), text);
    for (const text of [ED_SIG_OF_123, SECP_SIG_OF_SHA256_123])
      assert.equal(signatureToString(parseSignature(text)), text);
  });

  it('default to ed25519 without a prefix and take the prefix in any case', () => {
    const bare = ED_PUBLIC.slice('ed25519:'.length);
    assert.deepEqual(parsePublicKey(bare), parsePublicKey(ED_PUBLIC));
    assert.deepEqual(parsePublicKey(`ED25519:${bare}`), parsePublicKey(ED_PUBLIC));
    assert.deepEqual(
      parsePublicKey(SECP_PUBLIC.replace('secp256k1', 'SECP256K1')),
      parsePublicKey(SECP_PUBLIC),
    );
    assert.equal(parsePublicKey(ED_PUBLIC).keyType, KEY_TYPE_ED25519);
    assert.equal(parsePublicKey(SECP_PUBLIC).keyType, KEY_TYPE_SECP256K1);
    assert.equal(parseSignature(ED_SIG_OF_123.slice(8)).keyType, KEY_TYPE_ED25519);
  });

  it('reject bad strings', () => {
    const bad = [
      'ed25519:', // empty
      'ed25519:0OIl', // not base58
      `ed25519:${base58Encode(new Uint8Array(31))}`,
      `ed25519:${base58Encode(new Uint8Array(33))}`,
      `secp256k1:${base58Encode(new Uint8Array(32))}`, // ed25519-sized data under the secp prefix
      `secp256k1:${base58Encode(new Uint8Array(65))}`,
      `rsa:${base58Encode(new Uint8Array(32))}`,
      `ed25519:ed25519:${base58Encode(new Uint8Array(32))}`,
    ];
    for (const text of bad) {
      assert.throws(() => parsePublicKey(text), InvalidPublicKeyError, text);
      assert.equal(isValidPublicKeyString(text), false, text);
    }
    assert.throws(() => parsePublicKey(42 as unknown as string), InvalidPublicKeyError);
    assert.throws(() => parseSignature(`ed25519:${base58Encode(new Uint8Array(63))}`), InvalidSignatureError);
    assert.throws(
      () => parseSignature(`secp256k1:${base58Encode(new Uint8Array(64))}`),
      InvalidSignatureError,
    );
    assert.throws(() => parseSignature('ed448:abc'), InvalidSignatureError);
  });

  it('compare keys and signatures by type and bytes', () => {
    const a = parsePublicKey(ED_PUBLIC);
    assert.equal(publicKeysEqual(a, parsePublicKey(ED_PUBLIC.slice(8))), true);
    assert.equal(publicKeysEqual(a, rng.keyPair().publicKey), false);
    const s = parseSignature(ED_SIG_OF_123);
    assert.equal(signaturesEqual(s, parseSignature(ED_SIG_OF_123)), true);
    assert.equal(signaturesEqual(s, { keyType: KEY_TYPE_ED25519, data: new Uint8Array(64) }), false);
  });
});

describe('KeyPair', () => {
  it('round trips through its string form for both curves', () => {
    for (const type of ['ed25519', 'secp256k1'] as const) {
      const kp = rng.keyPair(type);
      const again = KeyPair.fromString(kp.toString());
      assert.equal(again.publicKeyString, kp.publicKeyString);
      assert.equal(again.toString(), kp.toString());
      assert.ok(kp.toString().startsWith(`${type}:`));
    }
  });

  it('accepts a bare 32-byte ed25519 seed, no prefix, and near-api-js extended secp256k1 keys', () => {
    const kp = KeyPair.fromSecretBytes(KEY_TYPE_ED25519, ED_SEED);
    assert.equal(KeyPair.fromString(`ed25519:${base58Encode(ED_SEED)}`).publicKeyString, ED_PUBLIC);
    assert.equal(KeyPair.fromString(ED_SECRET.slice(8)).publicKeyString, ED_PUBLIC);
    assert.equal(
      KeyPair.fromString(ED_SECRET.replace('ed25519', 'ED25519')).publicKeyString,
      kp.publicKeyString,
    );
    const theirs = NearJsKeyPair.fromString(rng.keyPair('secp256k1').toString() as never);
    const ours = KeyPair.fromString(theirs.toString());
    assert.equal(ours.publicKeyString, theirs.getPublicKey().toString());
  });

  it('rejects bad secret keys without echoing them', () => {
    const secret = base58Decode(ED_SECRET.slice(8));
    const mismatched = Uint8Array.from(secret);
    mismatched[40] ^= 1;
    const zero = `secp256k1:${base58Encode(new Uint8Array(32))}`;
    const bad = [
      `ed25519:${base58Encode(mismatched)}`,
      `ed25519:${base58Encode(new Uint8Array(48))}`,
      zero, // secret scalar 0 is out of range
      `secp256k1:${base58Encode(new Uint8Array(32).fill(0xff))}`, // above the curve order
      'ed25519:0OIl',
      `dsa:${base58Encode(secret)}`,
    ];
    for (const text of bad) {
      assert.throws(
        () => KeyPair.fromString(text),
        (err: unknown) =>
          err instanceof InvalidSecretKeyError && !err.message.includes(text.slice(text.indexOf(':') + 1)),
        text,
      );
    }
    assert.throws(() => KeyPair.fromRandom('rsa' as 'ed25519'), InvalidSecretKeyError);
  });

  it('never shows its secret in JSON or util.inspect', () => {
    const kp = KeyPair.fromSecretBytes(KEY_TYPE_ED25519, ED_SEED);
    const secretData = ED_SECRET.slice(8);
    assert.deepEqual(JSON.parse(JSON.stringify(kp)), { publicKey: ED_PUBLIC });
    assert.ok(!inspect(kp).includes(secretData));
    assert.ok(inspect(kp).includes(ED_PUBLIC));
    assert.ok(!JSON.stringify({ kp }).includes(secretData));
  });

  it('signs and verifies; tampering, wrong keys and wrong types fail', () => {
    for (const type of ['ed25519', 'secp256k1'] as const) {
      const kp = rng.keyPair(type);
      const other = rng.keyPair(type);
      const message = sha256(utf8Encode(`message for ${type}`));
      const sig = kp.sign(message);
      assert.equal(sig.keyType, kp.keyType);
      assert.equal(kp.verify(message, sig), true);
      assert.equal(verifySignature(message, sig, kp.publicKey), true);
      const tampered = Uint8Array.from(message);
      tampered[0] ^= 1;
      assert.equal(verifySignature(tampered, sig, kp.publicKey), false);
      assert.equal(verifySignature(message, sig, other.publicKey), false);
      const badSig = { keyType: sig.keyType, data: Uint8Array.from(sig.data) };
      badSig.data[5] ^= 0x10;
      assert.equal(verifySignature(message, badSig, kp.publicKey), false);
    }
    const ed = rng.keyPair('ed25519');
    const secp = rng.keyPair('secp256k1');
    const message = new Uint8Array(32);
    assert.equal(verifySignature(message, ed.sign(message), secp.publicKey), false);
    assert.equal(verifySignature(message, secp.sign(message), ed.publicKey), false);
  });

  it('ed25519 signs messages of any length; secp256k1 only 32-byte messages', () => {
    const ed = rng.keyPair('ed25519');
    const long = new Uint8Array(1000).fill(7);
    assert.equal(ed.verify(long, ed.sign(long)), true);
    const secp = rng.keyPair('secp256k1');
    assert.throws(() => secp.sign(new Uint8Array(31)), RangeError);
    const sig = secp.sign(new Uint8Array(32));
    // nearcore's verify refuses a message that is not 32 bytes long.
    assert.equal(verifySignature(new Uint8Array(33), sig, secp.publicKey), false);
  });

  it('secp256k1 verification follows libsecp256k1: low-S only, recovery id 0..3 but unused', () => {
    const kp = KeyPair.fromString(SECP_SECRET);
    const message = sha256(utf8Encode('123'));
    const sig = kp.sign(message);
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const s = BigInt(`0x${Buffer.from(sig.data.subarray(32, 64)).toString('hex')}`);
    assert.ok(s <= n / 2n, 'signing produces low-S');
    const highS = Uint8Array.from(sig.data);
    highS.set(Buffer.from((n - s).toString(16).padStart(64, '0'), 'hex'), 32);
    assert.equal(verifySignature(message, { keyType: KEY_TYPE_SECP256K1, data: highS }, kp.publicKey), false);
    const otherV = Uint8Array.from(sig.data);
    otherV[64] = sig.data[64] ^ 1;
    assert.equal(verifySignature(message, { keyType: KEY_TYPE_SECP256K1, data: otherV }, kp.publicKey), true);
    otherV[64] = 4;
    assert.equal(
      verifySignature(message, { keyType: KEY_TYPE_SECP256K1, data: otherV }, kp.publicKey),
      false,
    );
    const offCurve = { keyType: KEY_TYPE_SECP256K1, data: new Uint8Array(64).fill(1) } as const;
    assert.equal(verifySignature(message, sig, offCurve), false);
  });

  it('ed25519 verification rejects keys that are not curve points', () => {
    const kp = rng.keyPair('ed25519');
    const message = new Uint8Array(32);
    const notAPoint = { keyType: KEY_TYPE_ED25519, data: new Uint8Array(32).fill(0xff) } as const;
    assert.equal(verifySignature(message, kp.sign(message), notAPoint), false);
  });
});

describe('interop with @near-js/crypto', () => {
  it('their signatures verify with ours and ours with theirs, for both curves', () => {
    for (const type of ['ed25519', 'secp256k1'] as const) {
      const theirs = NearJsKeyPair.fromString(rng.keyPair(type).toString() as never);
      const ours = KeyPair.fromString(theirs.toString());
      assert.equal(ours.publicKeyString, theirs.getPublicKey().toString());
      const message = sha256(utf8Encode(`interop ${type}`));
      const theirSig = theirs.sign(message).signature;
      assert.equal(
        verifySignature(message, { keyType: ours.keyType, data: theirSig }, ours.publicKey),
        true,
        type,
      );
      const ourSig = ours.sign(message);
      assert.equal(theirs.verify(message, ourSig.data), true, type);
      assert.equal(NearJsPublicKey.fromString(ours.publicKeyString).verify(message, ourSig.data), true, type);
    }
  });

  it('derive the same NEAR-implicit account id', () => {
    const theirs = NearJsKeyPair.fromString(rng.keyPair('ed25519').toString() as never);
    const ours = KeyPair.fromString(theirs.toString());
    assert.equal(
      nearImplicitAccountId(ours.publicKey),
      Buffer.from(theirs.getPublicKey().data).toString('hex'),
    );
    assert.throws(() => nearImplicitAccountId(rng.keyPair('secp256k1').publicKey), InvalidPublicKeyError);
    assert.throws(() => ethImplicitAccountId(ours.publicKey), InvalidPublicKeyError);
  });
});

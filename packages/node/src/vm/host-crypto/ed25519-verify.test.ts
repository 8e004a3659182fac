import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { HostError } from '../vm-errors.js';
import { ed25519Verify } from './ed25519-verify.js';

const Point = ed25519.Point;
const { n: L, p: P } = Point.CURVE();

// RFC 8032 §7.1 test 1 (empty message).
const PK = hexToBytes('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
const SIG = hexToBytes(
  'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555' +
    'fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
);
// RFC 8032 §7.1 test 2 (one-byte message 0x72).
const PK2 = hexToBytes('3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c');
const SIG2 = hexToBytes(
  '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da' +
    '085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
);

const le32 = (n: bigint) => {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
};
const leToBigint = (b: Uint8Array) => b.reduceRight((acc, x) => (acc << 8n) | BigInt(x), 0n);

function invalidInput(msg: string) {
  return (e: unknown) =>
    e instanceof HostError && e.variant === 'Ed25519VerifyInvalidInput' && e.fields?.msg === msg;
}

/** A signature valid for any message under an identity key (k·A = 0): R = s·B. */
function sigForIdentityKey(): Uint8Array {
  const s = 12345n;
  return new Uint8Array([...Point.BASE.multiply(s).toBytes(), ...le32(s)]);
}

describe('ed25519Verify', () => {
  it('accepts the RFC 8032 vectors and rejects tampering', () => {
    assert.equal(ed25519Verify(SIG, new Uint8Array(), PK), true);
    assert.equal(ed25519Verify(SIG2, new Uint8Array([0x72]), PK2), true);
    assert.equal(ed25519Verify(SIG2, new Uint8Array([0x73]), PK2), false);
    assert.equal(ed25519Verify(SIG, new Uint8Array(), PK2), false);
  });

  it('returns false when sig[63] has any of its top three bits set', () => {
    for (const bit of [0x20, 0x40, 0x80]) {
      const bad = SIG.slice();
      bad[63]! |= bit;
      assert.equal(ed25519Verify(bad, new Uint8Array(), PK), false);
    }
    // The rule precedes the key-length check: no error even with a bad key.
    const bad = SIG.slice();
    bad[63]! |= 0x20;
    assert.equal(ed25519Verify(bad, new Uint8Array(), new Uint8Array(5)), false);
  });

  it('throws Ed25519VerifyInvalidInput for wrong lengths, signature first', () => {
    assert.throws(
      () => ed25519Verify(SIG.subarray(0, 63), new Uint8Array(), PK),
      invalidInput('invalid signature length'),
    );
    assert.throws(
      () => ed25519Verify(new Uint8Array(65), new Uint8Array(), new Uint8Array(1)),
      invalidInput('invalid signature length'),
    );
    assert.throws(
      () => ed25519Verify(SIG, new Uint8Array(), PK.subarray(0, 31)),
      invalidInput('invalid public key length'),
    );
    assert.throws(
      () => ed25519Verify(SIG, new Uint8Array(), new Uint8Array(33)),
      invalidInput('invalid public key length'),
    );
  });

  it('rejects a non-canonical S (S + ℓ), as dalek requires S < ℓ', () => {
    const s = leToBigint(SIG.subarray(32));
    const bumped = new Uint8Array([...SIG.subarray(0, 32), ...le32(s + L)]);
    assert.equal(bumped[63]! & 0xe0, 0); // still passes the top-bits rule
    assert.equal(ed25519Verify(bumped, new Uint8Array(), PK), false);
  });

  it('returns false for a key that does not decompress', () => {
    let bad: Uint8Array | undefined;
    for (let y = 2n; y < 100n && !bad; y++) {
      try {
        Point.fromBytes(le32(y));
      } catch {
        bad = le32(y);
      }
    }
    assert.ok(bad);
    assert.equal(ed25519Verify(SIG, new Uint8Array(), bad), false);
  });

  it('accepts small-order, non-canonical and negative-zero keys like dalek `verify` (not verify_strict)', () => {
    const identity = le32(1n); // y = 1, x = 0
    assert.equal(ed25519Verify(sigForIdentityKey(), new Uint8Array([1, 2, 3]), identity), true);
    const nonCanonical = le32(P + 1n); // y = p + 1 ≡ 1
    assert.equal(ed25519Verify(sigForIdentityKey(), new Uint8Array([1]), nonCanonical), true);
    const negativeZero = identity.slice();
    negativeZero[31]! |= 0x80;
    assert.equal(ed25519Verify(sigForIdentityKey(), new Uint8Array(), negativeZero), true);
  });

  it('uses the cofactorless equation: a torsion component in the key breaks it unless 8 | k', () => {
    // A' = a·B + T with T of order 8; S = r + k·a. Cofactored verifiers accept every such signature,
    // dalek's `verify` only those whose k is a multiple of 8.
    const T = Point.fromBytes(hexToBytes('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a'));
    assert.equal(T.multiplyUnsafe(8n).is0(), true);
    assert.equal(T.multiplyUnsafe(4n).is0(), false);
    const a = 0x1234567890abcdefn;
    const A = Point.BASE.multiply(a).add(T).toBytes();
    let seenTrue = false;
    let seenFalse = false;
    for (let i = 1n; i < 40n && !(seenTrue && seenFalse); i++) {
      const msg = le32(i);
      const r = 1000n + i;
      const R = Point.BASE.multiply(r).toBytes();
      const k = leToBigint(sha512(new Uint8Array([...R, ...A, ...msg]))) % L;
      const S = (r + k * a) % L;
      const sig = new Uint8Array([...R, ...le32(S)]);
      const ok = ed25519Verify(sig, msg, A);
      assert.equal(ok, k % 8n === 0n);
      if (ok) seenTrue = true;
      else seenFalse = true;
    }
    assert.ok(seenFalse);
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { testRandom } from '../../../test/test-random.js';
import {
  bytesToBigIntBE,
  bytesToHex,
  deriveEd25519PublicKey,
  deriveEd25519SecretScalar,
  deriveSecp256k1PublicKey,
  deriveSecp256k1SecretKey,
  deriveTweak,
  ED25519_ORDER,
  ed25519PublicKeyOfScalar,
  SECP256K1_ORDER,
  secp256k1PublicKeyOf,
} from './derivation.js';
import { RootKeys } from './root-keys.js';
import {
  type EcdsaSignatureResponse,
  recoverEcdsaPublicKey,
  signEcdsa,
  signEddsa,
  verifyEddsaResponse,
} from './signing.js';

const rng = testRandom('packages/mpc/src/signing.test.ts');

function ecdsaShape(r: EcdsaSignatureResponse) {
  assert.deepEqual(Object.keys(r).sort(), ['big_r', 'recovery_id', 's', 'scheme']);
  assert.equal(r.scheme, 'Secp256k1');
  assert.match(r.big_r.affine_point, /^0[23][0-9a-f]{64}$/);
  assert.match(r.s.scalar, /^[0-9a-f]{64}$/);
  assert.ok(r.recovery_id === 0 || r.recovery_id === 1);
}

describe('ECDSA', () => {
  test('round trip: low-S, verifies with noble, recovers the derived key', () => {
    const keys = RootKeys.generate();
    for (let i = 0; i < 16; i++) {
      const tweak = deriveTweak('user.test.near', `eth-${i}`);
      const child = keys.childSecret(0, tweak);
      const payload = new Uint8Array(rng.bytes(32));
      const response = signEcdsa(child, payload);
      ecdsaShape(response);
      const r = response.big_r.affine_point.slice(2);
      const s = BigInt(`0x${response.s.scalar}`);
      assert.ok(s <= SECP256K1_ORDER >> 1n, 'low-S');
      const compact = Uint8Array.from(Buffer.from(r + response.s.scalar, 'hex'));
      const derived = deriveSecp256k1PublicKey(keys.secp256k1PublicKey, tweak);
      assert.ok(secp256k1.verify(compact, payload, Uint8Array.from([4, ...derived]), { prehash: false }));
      assert.deepEqual(recoverEcdsaPublicKey(response, payload), derived);
      // Deterministic (RFC 6979).
      assert.deepEqual(signEcdsa(child, payload), response);
    }
  });

  test('high-S normalisation: s flipped, recovery id flipped, R (and its prefix) kept', () => {
    const secret = rng.secp256k1SecretKey();
    const publicKey = secp256k1PublicKeyOf(secret);
    let flipped = 0;
    let kept = 0;
    for (let i = 0; i < 64 && (flipped < 3 || kept < 3); i++) {
      const payload = new Uint8Array(rng.bytes(32));
      const raw = secp256k1.Signature.fromBytes(
        secp256k1.sign(payload, secret, { prehash: false, lowS: false, format: 'recovered' }),
        'recovered',
      );
      const response = signEcdsa(secret, payload);
      ecdsaShape(response);
      // R as the nonce point: prefix by R's own y parity.
      assert.equal(
        response.big_r.affine_point,
        (raw.recovery! & 1 ? '03' : '02') + bytesToHex(bigTo32(raw.r)),
      );
      const prefixOdd = response.big_r.affine_point.startsWith('03');
      if (raw.hasHighS()) {
        flipped++;
        assert.equal(BigInt(`0x${response.s.scalar}`), SECP256K1_ORDER - raw.s);
        assert.equal(response.recovery_id, raw.recovery! ^ 1);
        assert.notEqual(prefixOdd, (response.recovery_id & 1) === 1, 'prefix and recovery id differ');
      } else {
        kept++;
        assert.equal(BigInt(`0x${response.s.scalar}`), raw.s);
        assert.equal(response.recovery_id, raw.recovery);
        assert.equal(prefixOdd, (response.recovery_id & 1) === 1);
      }
      assert.deepEqual(recoverEcdsaPublicKey(response, payload), publicKey);
    }
    assert.ok(flipped >= 3 && kept >= 3, `flipped ${flipped}, kept ${kept}`);
  });

  test('recoverEcdsaPublicKey refuses high S (ecrecover with the malleability flag)', () => {
    const secret = rng.secp256k1SecretKey();
    const payload = new Uint8Array(rng.bytes(32));
    const response = signEcdsa(secret, payload);
    const highS = SECP256K1_ORDER - BigInt(`0x${response.s.scalar}`);
    const malleated: EcdsaSignatureResponse = {
      ...response,
      s: { scalar: bytesToHex(bigTo32(highS)) },
      recovery_id: response.recovery_id ^ 1,
    };
    assert.equal(recoverEcdsaPublicKey(malleated, payload), null);
    assert.deepEqual(recoverEcdsaPublicKey(malleated, payload, false), secp256k1PublicKeyOf(secret));
    // Uppercase hex (contracts ≤ 3.5) parses too.
    const upper: EcdsaSignatureResponse = {
      ...response,
      big_r: { affine_point: response.big_r.affine_point.toUpperCase() },
      s: { scalar: response.s.scalar.toUpperCase() },
    };
    assert.deepEqual(recoverEcdsaPublicKey(upper, payload), secp256k1PublicKeyOf(secret));
  });

  test('the contract unit test recipe: root secret + tweak signs for root public + tweak·G', () => {
    const root = rng.secp256k1SecretKey();
    const tweak = deriveTweak('my-contract.test.near', 'ethereum-1');
    const payload = new Uint8Array(32).fill(7);
    const response = signEcdsa(deriveSecp256k1SecretKey(root, tweak), payload);
    assert.deepEqual(
      recoverEcdsaPublicKey(response, payload),
      deriveSecp256k1PublicKey(secp256k1PublicKeyOf(root), tweak),
    );
    assert.throws(() => signEcdsa(root, new Uint8Array(31)));
  });
});

describe('EdDSA (expanded-key signing from a scalar)', () => {
  test('round trip for several message lengths; verifies with noble under the derived key', () => {
    const keys = RootKeys.generate();
    for (const length of [0, 1, 31, 32, 100, 1232]) {
      const tweak = deriveTweak('solana-user.test.near', `sol-${length}`);
      const child = keys.childSecret(1, tweak);
      const message = new Uint8Array(rng.bytes(length));
      const response = signEddsa(child, message);
      assert.equal(response.scheme, 'Ed25519');
      assert.equal(response.signature.length, 64);
      assert.ok(response.signature.every((b) => Number.isInteger(b) && b >= 0 && b <= 255));
      const derived = deriveEd25519PublicKey(keys.ed25519PublicKey, tweak);
      assert.deepEqual(ed25519PublicKeyOfScalar(child), derived);
      assert.ok(ed25519.verify(Uint8Array.from(response.signature), message, derived, { zip215: false }));
      assert.ok(verifyEddsaResponse(response, message, derived));
      // S is canonical (< ℓ), as strict verifiers require.
      const S = bytesToBigIntBE(Uint8Array.from(response.signature.slice(32)).reverse());
      assert.ok(S < ED25519_ORDER);
      // Deterministic, and bound to the message.
      assert.deepEqual(signEddsa(child, message), response);
      const other = Uint8Array.from([...message, 1]);
      assert.ok(!verifyEddsaResponse(response, other, derived));
    }
  });

  test('a scalar given as bigint or bytes signs the same; out-of-range scalars are refused', () => {
    const root = 987654321987654321n;
    const tweak = deriveTweak('a.test.near', 'x');
    const child = deriveEd25519SecretScalar(root, tweak);
    const asBig = bytesToBigIntBE(Uint8Array.from(child).reverse());
    const message = new TextEncoder().encode('hello');
    assert.deepEqual(signEddsa(asBig, message), signEddsa(child, message));
    assert.throws(() => signEddsa(ED25519_ORDER, message));
    assert.throws(() => signEddsa(0n, message));
  });
});

function bigTo32(value: bigint): Uint8Array {
  return Uint8Array.from(Buffer.from(value.toString(16).padStart(64, '0'), 'hex'));
}

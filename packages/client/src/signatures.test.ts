/**
 * Conversion helpers, checked against independent libraries: signatures are produced with @noble/curves in
 * the shape NEAR's signer returns (R compressed by its own y parity, s normalised to low-S, recovery_id the
 * bit that recovers the key), and the EVM forms are recovered with viem.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base58 } from '@scure/base';
import { recoverAddress, serializeSignature } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { testRandom } from '../../../test/test-random.js';
import {
  type EcdsaSignatureResponse,
  type EddsaSignatureResponse,
  SignatureFormatError,
  toBitcoinSignature,
  toCompactSignature,
  toDerSignature,
  toEvmSignature,
  toRsvHex,
  toSolanaSignature,
  toSolanaSignatureBase58,
} from './index.js';

const rng = testRandom('packages/client/src/signatures.test.ts');

const N = secp256k1.Point.CURVE().n;
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const be32 = (x: bigint) => x.toString(16).padStart(64, '0');

/** A secp256k1 signature of a 32-byte hash in NEAR's response shape (see packages/mpc signing notes). */
function nearEcdsa(secret: Uint8Array, hash: Uint8Array): EcdsaSignatureResponse & { flipped: boolean } {
  const raw = secp256k1.Signature.fromBytes(
    secp256k1.sign(hash, secret, { prehash: false, lowS: false, format: 'recovered' }),
    'recovered',
  );
  const recovery = raw.recovery ?? 0;
  assert.equal(recovery & 2, 0, 'R.x >= n is practically impossible');
  const rOdd = (recovery & 1) === 1;
  const flipped = raw.s > N >> 1n;
  return {
    scheme: 'Secp256k1',
    big_r: { affine_point: (rOdd ? '03' : '02') + be32(raw.r) },
    s: { scalar: be32(flipped ? N - raw.s : raw.s) },
    recovery_id: flipped ? recovery ^ 1 : recovery,
    flipped,
  };
}

function sample(count: number) {
  return Array.from({ length: count }, () => {
    const secret = rng.secp256k1SecretKey();
    const hash = new Uint8Array(rng.bytes(32));
    return { secret, hash, address: privateKeyToAddress(`0x${hex(secret)}`), sig: nearEcdsa(secret, hash) };
  });
}

describe('signature conversions', () => {
  const cases = sample(48);

  it('the samples include signatures whose 02/03 prefix is not the recovery bit', () => {
    // P(no flipped sample in 48) = 2^-48.
    const mismatched = cases.filter(
      (c) => (c.sig.big_r.affine_point.startsWith('03') ? 1 : 0) !== c.sig.recovery_id,
    );
    assert.ok(mismatched.length > 0);
    assert.ok(mismatched.every((c) => c.sig.flipped));
  });

  it('toEvmSignature: {r, s, yParity} recovers the signer address with viem', async () => {
    for (const c of cases) {
      const evm = toEvmSignature(c.sig);
      assert.equal(evm.r, `0x${c.sig.big_r.affine_point.slice(2)}`);
      assert.equal(evm.s, `0x${c.sig.s.scalar}`);
      assert.equal(evm.yParity, c.sig.recovery_id);
      assert.equal(await recoverAddress({ hash: `0x${hex(c.hash)}`, signature: evm }), c.address);
      assert.equal(
        await recoverAddress({ hash: `0x${hex(c.hash)}`, signature: serializeSignature(evm) }),
        c.address,
      );
    }
  });

  it('using the 02/03 prefix as yParity would recover the wrong address', async () => {
    const c = cases.find((x) => x.sig.flipped)!;
    const wrong = {
      ...toEvmSignature(c.sig),
      yParity: c.sig.big_r.affine_point.startsWith('03') ? 1 : 0,
    } as const;
    assert.notEqual(await recoverAddress({ hash: `0x${hex(c.hash)}`, signature: wrong }), c.address);
  });

  it('toRsvHex: r‖s‖v with v = 27 + recovery_id, recovers with viem', async () => {
    for (const c of cases.slice(0, 12)) {
      const rsv = toRsvHex(c.sig);
      assert.equal(rsv.length, 2 + 130);
      assert.equal(Number.parseInt(rsv.slice(-2), 16), 27 + c.sig.recovery_id);
      assert.equal(await recoverAddress({ hash: `0x${hex(c.hash)}`, signature: rsv }), c.address);
    }
  });

  it('Bitcoin forms: compact r‖s and DER, both verify with noble and DER matches noble', () => {
    for (const c of cases) {
      const publicKey = secp256k1.getPublicKey(c.secret, true);
      const compact = toCompactSignature(c.sig);
      assert.equal(compact.length, 64);
      assert.ok(secp256k1.verify(compact, c.hash, publicKey, { prehash: false }));
      const der = toDerSignature(c.sig);
      assert.equal(hex(der), hex(secp256k1.Signature.fromBytes(compact, 'compact').toBytes('der')));
      assert.ok(secp256k1.verify(der, c.hash, publicKey, { prehash: false, format: 'der' }));
      const btc = toBitcoinSignature(c.sig);
      assert.deepEqual(btc, { compact, der, recoveryId: c.sig.recovery_id });
    }
  });

  it('DER uses minimal integers: leading zeros dropped, 0x00 added before a high bit', () => {
    const sig: EcdsaSignatureResponse = {
      scheme: 'Secp256k1',
      big_r: { affine_point: `02${'00'.repeat(31)}01` },
      s: { scalar: `80${'00'.repeat(31)}` },
      recovery_id: 1,
    };
    assert.equal(hex(toDerSignature(sig)), `3026020101022100${'80'}${'00'.repeat(31)}`);
  });

  it('Solana: the 64 bytes of an Ed25519 response verify; base58 matches @scure/base', () => {
    const secret = rng.bytes(32);
    const message = new Uint8Array(rng.bytes(100));
    const signature = ed25519.sign(message, secret);
    const response: EddsaSignatureResponse = { scheme: 'Ed25519', signature: Array.from(signature) };
    const bytes = toSolanaSignature(response);
    assert.equal(hex(bytes), hex(signature));
    assert.ok(ed25519.verify(bytes, message, ed25519.getPublicKey(secret)));
    assert.equal(toSolanaSignatureBase58(response), base58.encode(signature));
    const leadingZeros = { scheme: 'Ed25519' as const, signature: [0, 0, ...Array(62).fill(7)] };
    assert.equal(
      toSolanaSignatureBase58(leadingZeros),
      base58.encode(Uint8Array.from(leadingZeros.signature)),
    );
  });

  it('wrong scheme or malformed fields throw SignatureFormatError', () => {
    const eddsa: EddsaSignatureResponse = { scheme: 'Ed25519', signature: Array(64).fill(1) };
    const ecdsa = cases[0]!.sig;
    assert.throws(() => toEvmSignature(eddsa), SignatureFormatError);
    assert.throws(() => toSolanaSignature(ecdsa), SignatureFormatError);
    assert.throws(() => toSolanaSignature({ scheme: 'Ed25519', signature: [1, 2] }), SignatureFormatError);
    assert.throws(
      () => toSolanaSignature({ scheme: 'Ed25519', signature: Array(64).fill(256) }),
      SignatureFormatError,
    );
    assert.throws(() => toEvmSignature({ ...ecdsa, recovery_id: 2 }), SignatureFormatError);
    assert.throws(() => toEvmSignature({ ...ecdsa, big_r: { affine_point: '04ab' } }), SignatureFormatError);
    assert.throws(() => toRsvHex({ ...ecdsa, s: { scalar: 'xyz' } }), SignatureFormatError);
  });

  it('a short s scalar is left-padded to 32 bytes', () => {
    const sig = { ...cases[0]!.sig, s: { scalar: '1' } };
    assert.equal(toEvmSignature(sig).s, `0x${'0'.repeat(63)}1`);
  });
});

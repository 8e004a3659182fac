/**
 * Matching a chain signature to EVM transactions (signature-match.ts): a secp256k1 signature in the signer's
 * answer form (big_r compressed, s, recovery_id) against transactions viem signs with it, typed and legacy
 * (EIP-155 v), and the same signature with the high s; a different signature does not match.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import {
  type Hex,
  keccak256,
  parseTransaction,
  serializeTransaction,
  type TransactionSerializable,
} from 'viem';
import { carriesSignature, ecdsaOfResponse, parityOfTx } from './signature-match.js';

const N = secp256k1.Point.Fn.ORDER;
const key = new Uint8Array(32).fill(9);
const hex = (n: bigint) => `0x${n.toString(16)}` as Hex;

/** The signer's answer for `hash` (low s), as the responder writes it. */
function answer(hash: Hex) {
  const sig = secp256k1.Signature.fromBytes(
    secp256k1.sign(Buffer.from(hash.slice(2), 'hex'), key, { prehash: false, format: 'recovered' }),
    'recovered',
  );
  const rx = sig.r.toString(16).padStart(64, '0');
  return {
    sig,
    response: {
      big_r: { affine_point: `0${2 + (sig.recovery! & 1)}${rx}` },
      s: { scalar: sig.s.toString(16).padStart(64, '0') },
      recovery_id: sig.recovery,
    },
  };
}

/** The transaction as an RPC shows it (r, s, v, yParity as quantities). */
function rpcView(tx: TransactionSerializable, r: bigint, s: bigint, parity: number) {
  const v = tx.type === 'legacy' ? BigInt(tx.chainId! * 2 + 35 + parity) : BigInt(parity);
  const raw = serializeTransaction(tx, { r: hex(r), s: hex(s), v, yParity: parity });
  const parsed = parseTransaction(raw);
  return {
    r: parsed.r!,
    s: parsed.s!,
    v: hex(parsed.v ?? BigInt(parsed.yParity!)),
    ...(tx.type === 'legacy' ? {} : { yParity: hex(BigInt(parsed.yParity!)) }),
  };
}

const eip1559: TransactionSerializable = {
  type: 'eip1559',
  chainId: 31337,
  nonce: 0,
  to: '0x000000000000000000000000000000000000dEaD',
  value: 1000n,
  gas: 21000n,
  maxFeePerGas: 2_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
};
const legacy: TransactionSerializable = { ...eip1559, type: 'legacy', gasPrice: 1_000_000_000n };
delete (legacy as { maxFeePerGas?: bigint }).maxFeePerGas;
delete (legacy as { maxPriorityFeePerGas?: bigint }).maxPriorityFeePerGas;

test('a typed and a legacy transaction carry the signature of their hash; the high-s form too', () => {
  for (const tx of [eip1559, legacy]) {
    const { sig, response } = answer(keccak256(serializeTransaction(tx)));
    const signature = ecdsaOfResponse(response)!;
    assert.equal(signature.r, sig.r);
    assert.equal(signature.s, sig.s);
    const shown = rpcView(tx, sig.r, sig.s, sig.recovery! & 1);
    assert.equal(parityOfTx(shown), sig.recovery! & 1);
    assert.ok(carriesSignature(shown, signature), `${tx.type}`);
    const high = rpcView(tx, sig.r, N - sig.s, (sig.recovery! & 1) ^ 1);
    assert.ok(carriesSignature(high, signature), `${tx.type}, high s`);
    // The parity is part of it: the same r and s with the other parity recover another key.
    const flipped = rpcView(tx, sig.r, sig.s, (sig.recovery! & 1) ^ 1);
    assert.ok(!carriesSignature(flipped, signature), `${tx.type}, other parity`);
  }
});

test('another signature does not match; EdDSA and malformed answers have no ECDSA signature', () => {
  const a = answer(keccak256('0x01'));
  const b = answer(keccak256('0x02'));
  const shown = rpcView(eip1559, b.sig.r, b.sig.s, b.sig.recovery! & 1);
  assert.ok(!carriesSignature(shown, ecdsaOfResponse(a.response)!));
  assert.equal(ecdsaOfResponse({ scheme: 'Ed25519', signature: [1, 2, 3] }), undefined);
  assert.equal(ecdsaOfResponse({ big_r: { affine_point: '04ab' }, s: { scalar: '01' } }), undefined);
  assert.equal(ecdsaOfResponse(null), undefined);
});

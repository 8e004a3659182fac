/**
 * `p256_verify(sig, msg, pk)`: ECDSA over NIST P-256 with SHA-256, as nearcore's host function does it with
 * the RustCrypto `p256` crate:
 * - `sig` is the raw 64-byte r ‖ s (big-endian); r or s outside [1, n−1] → false;
 * - `msg` is the message itself — the host hashes it with SHA-256 (not a prehash);
 * - `pk` is a 33-byte SEC1 *compressed* key (0x02/0x03 ‖ x); anything that does not decode → false;
 * - high-S signatures are accepted (no low-S rule).
 * Order as in nearcore: the signature length, then the signature's scalars, then (after the message is
 * read) the key length; so a zero signature with a short key returns false rather than throwing.
 */
import { p256 } from '@noble/curves/nist.js';
import { hostError } from '../vm-errors.js';

const N = p256.Point.CURVE().n;

function beToBigint(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
}

export function p256Verify(sig: Uint8Array, msg: Uint8Array, pubKey: Uint8Array): boolean {
  if (sig.length !== 64) throw hostError.p256VerifyInvalidInput('invalid signature length');
  const r = beToBigint(sig.subarray(0, 32));
  const s = beToBigint(sig.subarray(32, 64));
  const scalarsOk = r > 0n && r < N && s > 0n && s < N;
  if (!scalarsOk) return false;
  if (pubKey.length !== 33) throw hostError.p256VerifyInvalidInput('invalid public key length');
  try {
    return p256.verify(sig, msg, pubKey, { prehash: true, lowS: false, format: 'compact' });
  } catch {
    return false;
  }
}

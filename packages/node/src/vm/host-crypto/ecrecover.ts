/**
 * `ecrecover`: recovers the secp256k1 public key that signed a 32-byte hash. Mirrors nearcore's host
 * function, which checks its inputs in this order (each failure is `ECRecoverError`): signature length,
 * `v`, hash length, malleability flag. Then `Secp256K1Signature::check_signature_values` and libsecp256k1's
 * recovery decide between a key and "no key" (the host returns 0 and writes nothing).
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hostError } from '../vm-errors.js';

const Point = secp256k1.Point;
const N = Point.CURVE().n;
const P = Point.CURVE().p;
/** nearcore's `SECP256K1_N_HALF_ONE`: floor(n / 2) + 1, the exclusive bound on `s` with the flag set. */
const N_HALF_ONE = N / 2n + 1n;

function beToBigint(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
}

function modN(a: bigint): bigint {
  const r = a % N;
  return r < 0n ? r + N : r;
}

/**
 * Recoveries already made, by their inputs (a pure function, and gas is charged before it runs). A contract
 * that derives keys with the ecrecover trick (the signer contract, once per sign request) recovers the same
 * inputs again for every request on the same path; one recovery costs about 3 ms of CPU here.
 */
const recovered = new Map<string, Uint8Array | null>();
const RECOVERED_MAX = 1024;
/**
 * The 64-byte uncompressed public key (x ‖ y, no 0x04 prefix), or `null` where nearcore's host returns 0.
 * Throws `ECRecoverError` for malformed arguments, with nearcore's exact messages.
 */
export function ecrecover(
  hash: Uint8Array,
  sig: Uint8Array,
  v: bigint,
  malleabilityFlag: bigint,
): Uint8Array | null {
  if (sig.length !== 64) {
    throw hostError.ecrecoverError(
      `The length of the signature: ${sig.length}, exceeds the limit of 64 bytes`,
    );
  }
  if (v < 0n || v >= 4n) {
    throw hostError.ecrecoverError(`V recovery byte 0 through 3 are valid but was provided ${v}`);
  }
  if (hash.length !== 32) {
    throw hostError.ecrecoverError(`The length of the hash: ${hash.length}, exceeds the limit of 32 bytes`);
  }
  if (malleabilityFlag !== 0n && malleabilityFlag !== 1n) {
    throw hostError.ecrecoverError(
      `Malleability flag needs to be 0 or 1, but is instead ${malleabilityFlag}`,
    );
  }
  const key = `${Buffer.from(hash).toString('hex')}${Buffer.from(sig).toString('hex')}${v}${malleabilityFlag}`;
  const known = recovered.get(key);
  if (known !== undefined) return known === null ? null : known.slice();
  const result = recover(hash, sig, v, malleabilityFlag);
  if (recovered.size >= RECOVERED_MAX) recovered.delete(recovered.keys().next().value as string);
  recovered.set(key, result === null ? null : result.slice());
  return result;
}

/** The recovery itself: libsecp256k1's checks, then Q = r⁻¹·(s·R − e·G). */
function recover(hash: Uint8Array, sig: Uint8Array, v: bigint, malleabilityFlag: bigint): Uint8Array | null {
  const r = beToBigint(sig.subarray(0, 32));
  const s = beToBigint(sig.subarray(32, 64));
  // check_signature_values: only upper bounds; zero r/s are left to the recovery, which fails on them.
  if (!(r < N && s < (malleabilityFlag === 1n ? N_HALF_ONE : N))) return null;
  if (r === 0n || s === 0n) return null;
  // Recovery ids 2 and 3 mean R.x = r + n (possible only when r + n < p).
  const rx = v >= 2n ? r + N : r;
  if (rx >= P) return null;
  let R: InstanceType<typeof Point>;
  try {
    const enc = new Uint8Array(33);
    enc[0] = (v & 1n) === 1n ? 0x03 : 0x02;
    enc.set(secp256k1.Point.Fp.toBytes(rx), 1);
    R = Point.fromBytes(enc);
  } catch {
    return null; // r is not the x of a curve point
  }
  // Q = r⁻¹·(s·R − e·G); libsecp256k1 reduces the hash modulo n.
  const e = modN(beToBigint(hash));
  const rInv = Point.Fn.inv(r);
  const u1 = modN(-e * rInv);
  const u2 = modN(s * rInv);
  const Q = Point.BASE.multiplyUnsafe(u1).add(R.multiplyUnsafe(u2));
  if (Q.is0()) return null;
  return Q.toBytes(false).subarray(1);
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bn254 } from '@noble/curves/bn254.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { HostError } from '../vm-errors.js';
import {
  altBn128G1Multiexp,
  altBn128G1MultiexpElements,
  altBn128G1Sum,
  altBn128PairingCheck,
  altBn128PairingCheckElements,
} from './alt-bn128.js';

const { Fp2, Fr } = bn254.fields;
const le32 = (n: bigint) => {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
};
const cat = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((p) => [...p]));
type G1P = InstanceType<typeof bn254.G1.Point>;
type G2P = InstanceType<typeof bn254.G2.Point>;
const g1 = (p: G1P) => (p.is0() ? new Uint8Array(64) : cat(le32(p.toAffine().x), le32(p.toAffine().y)));
const g2 = (p: G2P) => {
  if (p.is0()) return new Uint8Array(128);
  const { x, y } = p.toAffine();
  return cat(le32(x.c0), le32(x.c1), le32(y.c0), le32(y.c1)); // real ‖ imaginary
};
const G = bn254.G1.Point.BASE;
const Q = bn254.G2.Point.BASE;
const GEN = cat(le32(1n), le32(2n));

function invalid(msg: string) {
  return (e: unknown) =>
    e instanceof HostError &&
    e.variant === 'AltBn128InvalidInput' &&
    e.fields?.msg === msg &&
    e.display === `AltBn128 invalid input: ${msg}`;
}
const rustHex = (bytes: number[]) => `[${bytes.map((b) => b.toString(16).toUpperCase()).join(', ')}]`;

describe('alt_bn128', () => {
  it('multiexp: 2·G matches EIP-196', () => {
    const out = altBn128G1Multiexp(cat(GEN, le32(2n)));
    assert.equal(
      bytesToHex(out),
      bytesToHex(
        cat(
          le32(0x030644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd3n),
          le32(0x15ed738c0e0a7c92e7845f96b2ae9c0a68a6a449e3538fc7ff3ebf7a5a18a2c4n),
        ),
      ),
    );
  });

  it('multiexp sums several terms; empty input and zero scalars give the (0, 0) infinity', () => {
    const P = G.multiply(7n);
    const out = altBn128G1Multiexp(cat(GEN, le32(3n), g1(P), le32(5n), new Uint8Array(64), le32(9n)));
    assert.equal(bytesToHex(out), bytesToHex(g1(G.multiply(3n + 35n))));
    assert.equal(bytesToHex(altBn128G1Multiexp(new Uint8Array())), '00'.repeat(64));
    assert.equal(bytesToHex(altBn128G1Multiexp(cat(GEN, le32(0n)))), '00'.repeat(64));
    assert.equal(bytesToHex(altBn128G1Multiexp(cat(GEN, le32(Fr.ORDER - 1n)))), bytesToHex(g1(G.negate())));
  });

  it('sum honours the sign byte', () => {
    assert.equal(bytesToHex(altBn128G1Sum(cat([0], GEN, [0], GEN).slice())), bytesToHex(g1(G.double())));
    assert.equal(bytesToHex(altBn128G1Sum(cat([0], GEN, [1], GEN).slice())), '00'.repeat(64));
    assert.equal(bytesToHex(altBn128G1Sum(cat([1], GEN).slice())), bytesToHex(g1(G.negate())));
    assert.equal(bytesToHex(altBn128G1Sum(new Uint8Array())), '00'.repeat(64));
  });

  it('pairing: e(P, Q)·e(−P, Q) = 1 and e(aP, bQ)·e(−bP, aQ) = 1; a lone pair is not 1', () => {
    const P = G.multiply(11n);
    assert.equal(altBn128PairingCheck(cat(g1(P), g2(Q), g1(P.negate()), g2(Q))), true);
    assert.equal(
      altBn128PairingCheck(
        cat(g1(G.multiply(3n)), g2(Q.multiply(5n)), g1(G.multiply(5n).negate()), g2(Q.multiply(3n))),
      ),
      true,
    );
    assert.equal(altBn128PairingCheck(cat(g1(P), g2(Q))), false);
    assert.equal(altBn128PairingCheck(cat(g1(P), g2(Q), g1(P), g2(Q))), false);
  });

  it('pairing: empty input and pairs with an infinity point count as 1', () => {
    assert.equal(altBn128PairingCheck(new Uint8Array()), true);
    assert.equal(altBn128PairingCheck(cat(new Uint8Array(64), g2(Q))), true);
    assert.equal(altBn128PairingCheck(cat(g1(G), new Uint8Array(128))), true);
  });

  it('element counts are exact divisions, else the split error nearcore raises before charging', () => {
    assert.equal(altBn128G1MultiexpElements(new Uint8Array(192)), 2n);
    assert.equal(altBn128PairingCheckElements(new Uint8Array(0)), 0n);
    assert.throws(
      () => altBn128G1MultiexpElements(new Uint8Array(95)),
      invalid('slice of size 95 cannot be precisely split into chunks of size 96'),
    );
    assert.throws(
      () => altBn128G1Sum(new Uint8Array(66)),
      invalid('slice of size 66 cannot be precisely split into chunks of size 65'),
    );
    assert.throws(
      () => altBn128PairingCheck(new Uint8Array(191)),
      invalid('slice of size 191 cannot be precisely split into chunks of size 192'),
    );
  });

  it('rejects bad field elements, points, scalars and signs with Rust {:X?} dumps', () => {
    const ff = new Array(32).fill(0xff);
    assert.throws(
      () => altBn128G1Multiexp(cat(new Uint8Array(ff), le32(2n), le32(1n))),
      invalid(`invalid fq: ${rustHex(ff)}`),
    );
    const notOnCurve = [1, ...new Array(31).fill(0), 3, ...new Array(31).fill(0)];
    assert.throws(
      () => altBn128G1Multiexp(cat(new Uint8Array(notOnCurve), le32(1n))),
      invalid(`invalid g1: ${rustHex(notOnCurve)}`),
    );
    const r = [...le32(Fr.ORDER)];
    assert.throws(
      () => altBn128G1Multiexp(cat(GEN, new Uint8Array(r))),
      invalid(`invalid fr: ${rustHex(r)}`),
    );
    assert.throws(() => altBn128G1Sum(cat([2], GEN).slice()), invalid('invalid bool: [2]'));
    // The first bad item wins, even if a later one is bad in another way.
    assert.throws(
      () => altBn128G1Sum(cat([0], new Uint8Array(notOnCurve), [7], GEN).slice()),
      invalid(`invalid g1: ${rustHex(notOnCurve)}`),
    );
  });

  it('rejects G2 points off the twist or outside the order-r subgroup', () => {
    const offCurve = g2(Q).slice();
    offCurve[0]! ^= 1;
    assert.throws(
      () => altBn128PairingCheck(cat(GEN, offCurve)),
      invalid(`invalid g2: ${rustHex([...offCurve])}`),
    );
    // A twist point with a cofactor component: take x = 1 + i·k until x³ + b is a square.
    const b = bn254.G2.Point.CURVE().b;
    let outside: Uint8Array | undefined;
    for (let k = 1n; !outside; k++) {
      const x = Fp2.create({ c0: 1n, c1: k });
      const rhs = Fp2.add(Fp2.mul(Fp2.sqr(x), x), b);
      let y: ReturnType<typeof Fp2.create>;
      try {
        y = Fp2.sqrt(rhs);
      } catch {
        continue;
      }
      const p = new bn254.G2.Point(x, y, Fp2.ONE);
      if (!p.isTorsionFree()) outside = g2(p);
    }
    assert.throws(
      () => altBn128PairingCheck(cat(GEN, outside)),
      invalid(`invalid g2: ${rustHex([...outside])}`),
    );
  });
});

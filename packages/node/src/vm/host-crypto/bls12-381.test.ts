import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { HostError } from '../vm-errors.js';
import {
  bls12381ElementCount,
  bls12381G1Multiexp,
  bls12381G2Multiexp,
  bls12381MapFp2ToG2,
  bls12381MapFpToG1,
  bls12381P1Decompress,
  bls12381P1Sum,
  bls12381P2Decompress,
  bls12381P2Sum,
  bls12381PairingCheck,
} from './bls12-381.js';

const G = bls12_381.G1.Point.BASE;
const Q = bls12_381.G2.Point.BASE;
const { Fp, Fr } = bls12_381.fields;
const cat = (...parts: (Uint8Array | number[])[]) => new Uint8Array(parts.flatMap((p) => [...p]));
const le32 = (n: bigint) => {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
};
const be48 = (n: bigint) => hexToBytes(n.toString(16).padStart(96, '0'));
// noble's uncompressed encodings are the same ZCash format, except that it cannot encode infinity.
const u1 = (p: typeof G) => (p.is0() ? INF1 : cat(be48(p.toAffine().x), be48(p.toAffine().y)));
/** ZCash compressed G1 encoding, built by hand (noble refuses to encode points outside G1). */
const c1 = (p: typeof G) => {
  const { x, y } = p.toAffine();
  const out = be48(x);
  out[0]! |= 0x80 | (y > (Fp.ORDER - 1n) / 2n ? 0x20 : 0);
  return out;
};
const u2 = (p: typeof Q) => (p.is0() ? INF2 : p.toBytes(false));
const INF1 = cat([0x40], new Uint8Array(95));
const INF2 = cat([0x40], new Uint8Array(191));
const hex = bytesToHex;

const G1_GEN_COMPRESSED =
  '97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb';
const G1_GEN_UNCOMPRESSED =
  '17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb' +
  '08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1';

/** A point on E(Fp) outside G1 (and with x ≠ 0). */
function nonSubgroupG1() {
  for (let x = 1n; ; x++) {
    let y: bigint;
    try {
      y = Fp.sqrt(Fp.add(Fp.mul(Fp.sqr(x), x), 4n));
    } catch {
      continue;
    }
    const p = new bls12_381.G1.Point(x, y, Fp.ONE);
    if (!p.isTorsionFree()) return p;
  }
}

function lengthError(fn: string, len: number, size: number) {
  const msg = `Incorrect input length for ${fn}: ${len} is not divisible by ${size}`;
  return (e: unknown) =>
    e instanceof HostError &&
    e.variant === 'BLS12381InvalidInput' &&
    e.fields?.msg === msg &&
    e.display === `BLS12-381 invalid input: ${msg}`;
}

describe('bls12-381', () => {
  it('map_fp_to_g1 / map_fp2_to_g2 match nearcore’s EIP-2537 vectors', () => {
    const u =
      '14406e5bfb9209256a3820879a29ac2f62d6aca82324bf3ae2aa7d3c54792043bd8c791fccdb080c1a52dc68b8b69350';
    const r1 = bls12381MapFpToG1(hexToBytes(u));
    assert.equal(r1.status, 0n);
    assert.equal(
      hex(r1.output!),
      '0d7721bcdb7ce1047557776eb2659a444166dc6dd55c7ca6e240e21ae9aa18f529f04ac31d861b54faf3307692545db7' +
        '108286acbdf4384f67659a8abe89e712a504cb3ce1cba07a716869025d60d499a00d1da8cdc92958918c222ea93d87f0',
    );
    // Fp2 input and output are c1 ‖ c0 (EIP-2537 writes c0 first).
    const c0 = u;
    const im =
      '0e885bb33996e12f07da69073e2c0cc880bc8eff26d2a724299eb12d54f4bcf26f4748bb020e80a7e3794a7b0e47a641';
    const r2 = bls12381MapFp2ToG2(hexToBytes(im + c0));
    assert.equal(r2.status, 0n);
    assert.equal(
      hex(r2.output!),
      '1993f668fb1ae603aefbb1323000033fcb3b65d8ed3bf09c84c61e27704b745f540299a1872cd697ae45a5afd780f1d6' +
        '0d029393d3a13ff5b26fe52bd8953768946c5510f9441f1136f1e938957882db6adbd7504177ee49281ecccba596f2bf' +
        '17c688ae9a8b59a7069c27f2d58dd2196cb414f4fb89da8510518a1142ab19d158badd1c3bad03408fafb1669903cd6c' +
        '079cb41060ef7a128d286c9ef8638689a49ca19da8672ea5c47b6ba6dbde193ee835d3b87a76a689966037c07159c10d',
    );
    // Several elements are mapped one after the other; empty input gives empty output.
    assert.equal(hex(bls12381MapFpToG1(hexToBytes(u + u)).output!), hex(r1.output!).repeat(2));
    assert.equal(bls12381MapFpToG1(new Uint8Array()).output!.length, 0);
  });

  it('map functions return 1 for non-canonical field elements', () => {
    assert.deepEqual(bls12381MapFpToG1(be48(Fp.ORDER)), { status: 1n });
    assert.deepEqual(bls12381MapFp2ToG2(cat(be48(1n), be48(Fp.ORDER))), { status: 1n });
    assert.deepEqual(bls12381MapFp2ToG2(cat(be48(Fp.ORDER + 1n), be48(1n))), { status: 1n });
  });

  it('decompresses the G1 generator, infinity, and both y signs', () => {
    assert.equal(hex(bls12381P1Decompress(hexToBytes(G1_GEN_COMPRESSED)).output!), G1_GEN_UNCOMPRESSED);
    assert.equal(hex(bls12381P1Decompress(cat([0xc0], new Uint8Array(47))).output!), hex(INF1));
    const p = G.multiply(99n);
    const out = bls12381P1Decompress(cat(p.toBytes(true), p.negate().toBytes(true))).output!;
    assert.equal(hex(out), hex(p.toBytes(false)) + hex(p.negate().toBytes(false)));
    const q = Q.multiply(77n);
    assert.equal(hex(bls12381P2Decompress(q.toBytes(true)).output!), hex(q.toBytes(false)));
    assert.equal(hex(bls12381P2Decompress(q.negate().toBytes(true)).output!), hex(q.negate().toBytes(false)));
    assert.equal(hex(bls12381P2Decompress(cat([0xc0], new Uint8Array(95))).output!), hex(INF2));
  });

  it('decompression skips the subgroup check but returns 1 for bad encodings and (0, ±2)', () => {
    const outside = nonSubgroupG1();
    assert.equal(hex(bls12381P1Decompress(c1(outside)).output!), hex(u1(outside)));
    const noFlag = hexToBytes(G1_GEN_COMPRESSED);
    noFlag[0]! &= 0x7f;
    assert.deepEqual(bls12381P1Decompress(noFlag), { status: 1n });
    assert.deepEqual(bls12381P1Decompress(cat([0xc0], new Uint8Array(46), [1])), { status: 1n });
    assert.deepEqual(bls12381P1Decompress(cat([0x40], new Uint8Array(47))), { status: 1n });
    assert.deepEqual(bls12381P1Decompress(cat([0x80], new Uint8Array(47))), { status: 1n }); // x = 0
    const big = be48(Fp.ORDER + 1n);
    big[0]! |= 0x80;
    assert.deepEqual(bls12381P1Decompress(big), { status: 1n });
    assert.deepEqual(bls12381P2Decompress(cat([0xc0], new Uint8Array(94), [1])), { status: 1n });
  });

  it('p1/p2 sums honour signs, accept off-subgroup points, and encode infinity as 0x40…', () => {
    const P = G.multiply(5n);
    assert.deepEqual(bls12381P1Sum(cat([0], u1(G), [0], u1(P))), { status: 0n, output: u1(G.multiply(6n)) });
    assert.deepEqual(bls12381P1Sum(cat([0], u1(P), [1], u1(P))), { status: 0n, output: INF1 });
    assert.deepEqual(bls12381P1Sum(new Uint8Array()), { status: 0n, output: INF1 });
    assert.deepEqual(bls12381P1Sum(cat([1], INF1)), { status: 0n, output: INF1 });
    const outside = nonSubgroupG1();
    assert.deepEqual(bls12381P1Sum(cat([0], u1(outside), [0], u1(outside))), {
      status: 0n,
      output: u1(outside.double()),
    });
    const R = Q.multiply(3n);
    assert.deepEqual(bls12381P2Sum(cat([0], u2(Q), [1], u2(R))), {
      status: 0n,
      output: u2(Q.multiply(2n).negate()),
    });
  });

  it('p1 sum returns 1 for bad signs, flags, coordinates and the (0, ±2) points', () => {
    assert.deepEqual(bls12381P1Sum(cat([2], u1(G))), { status: 1n });
    const compressedFlag = u1(G).slice();
    compressedFlag[0]! |= 0x80;
    assert.deepEqual(bls12381P1Sum(cat([0], compressedFlag)), { status: 1n });
    const signFlag = u1(G).slice();
    signFlag[0]! |= 0x20;
    assert.deepEqual(bls12381P1Sum(cat([0], signFlag)), { status: 1n });
    const offCurve = u1(G).slice();
    offCurve[95]! ^= 1;
    assert.deepEqual(bls12381P1Sum(cat([0], offCurve)), { status: 1n });
    assert.deepEqual(bls12381P1Sum(cat([0], cat([0x40], new Uint8Array(94), [1]))), { status: 1n });
    const yPlusP = cat(u1(G).subarray(0, 48), be48(G.toAffine().y + Fp.ORDER));
    assert.deepEqual(bls12381P1Sum(cat([0], yPlusP)), { status: 1n });
    assert.deepEqual(bls12381P1Sum(cat([0], be48(0n), be48(2n))), { status: 1n }); // pre-fix quirk
  });

  it('multiexps: Σ s·P with 256-bit little-endian scalars; off-subgroup points give 1', () => {
    const P = G.multiply(3n);
    assert.deepEqual(bls12381G1Multiexp(cat(u1(G), le32(2n), u1(P), le32(4n))), {
      status: 0n,
      output: u1(G.multiply(14n)),
    });
    assert.deepEqual(bls12381G1Multiexp(cat(u1(G), le32(Fr.ORDER))), { status: 0n, output: INF1 });
    assert.deepEqual(bls12381G1Multiexp(cat(u1(G), le32(Fr.ORDER + 5n))), {
      status: 0n,
      output: u1(G.multiply(5n)),
    });
    assert.deepEqual(bls12381G1Multiexp(cat(u1(G), le32((1n << 256n) - 1n))), {
      status: 0n,
      output: u1(G.multiply(((1n << 256n) - 1n) % Fr.ORDER)),
    });
    assert.deepEqual(bls12381G1Multiexp(new Uint8Array()), { status: 0n, output: INF1 });
    assert.deepEqual(bls12381G1Multiexp(cat(u1(nonSubgroupG1()), le32(1n))), { status: 1n });
    assert.deepEqual(bls12381G2Multiexp(cat(u2(Q), le32(7n))), { status: 0n, output: u2(Q.multiply(7n)) });
    assert.deepEqual(bls12381G2Multiexp(new Uint8Array()), { status: 0n, output: INF2 });
  });

  it('pairing check: 0 when the product is one, 2 when not, 1 on bad input', () => {
    const P = G.multiply(17n);
    assert.deepEqual(bls12381PairingCheck(cat(u1(P), u2(Q), u1(P.negate()), u2(Q))), { status: 0n });
    assert.deepEqual(
      bls12381PairingCheck(
        cat(u1(G.multiply(3n)), u2(Q.multiply(5n)), u1(G.multiply(5n)), u2(Q.multiply(3n).negate())),
      ),
      { status: 0n },
    );
    assert.deepEqual(bls12381PairingCheck(cat(u1(P), u2(Q))), { status: 2n });
    assert.deepEqual(bls12381PairingCheck(new Uint8Array()), { status: 0n });
    assert.deepEqual(bls12381PairingCheck(cat(INF1, u2(Q))), { status: 0n });
    assert.deepEqual(bls12381PairingCheck(cat(u1(P), INF2)), { status: 0n });
    assert.deepEqual(bls12381PairingCheck(cat(u1(nonSubgroupG1()), u2(Q))), { status: 1n });
    const compressedFlag = u1(P).slice();
    compressedFlag[0]! |= 0x80;
    assert.deepEqual(bls12381PairingCheck(cat(compressedFlag, u2(Q))), { status: 1n });
    assert.deepEqual(bls12381PairingCheck(cat(cat([0xc0], new Uint8Array(95)), u2(Q))), { status: 1n });
  });

  it('throws BLS12381InvalidInput for lengths that are not whole items', () => {
    assert.throws(() => bls12381P1Sum(new Uint8Array(98)), lengthError('bls12381_p1_sum', 98, 97));
    assert.throws(() => bls12381P2Sum(new Uint8Array(1)), lengthError('bls12381_p2_sum', 1, 193));
    assert.throws(
      () => bls12381G1Multiexp(new Uint8Array(127)),
      lengthError('bls12381_p1_multiexp', 127, 128),
    );
    assert.throws(
      () => bls12381G2Multiexp(new Uint8Array(225)),
      lengthError('bls12381_p2_multiexp', 225, 224),
    );
    assert.throws(() => bls12381MapFpToG1(new Uint8Array(47)), lengthError('bls12381_map_fp_to_g1', 47, 48));
    assert.throws(
      () => bls12381MapFp2ToG2(new Uint8Array(97)),
      lengthError('bls12381_map_fp2_to_g2', 97, 96),
    );
    assert.throws(
      () => bls12381P1Decompress(new Uint8Array(49)),
      lengthError('bls12381_p1_decompress', 49, 48),
    );
    assert.throws(
      () => bls12381P2Decompress(new Uint8Array(97)),
      lengthError('bls12381_p2_decompress', 97, 96),
    );
    assert.throws(
      () => bls12381PairingCheck(new Uint8Array(289)),
      lengthError('bls12381_pairing_check', 289, 288),
    );
  });

  it('element counts round down, as nearcore charges before validating the length', () => {
    assert.equal(bls12381ElementCount(289, 288), 1n);
    assert.equal(bls12381ElementCount(96n, 97), 0n);
    assert.equal(bls12381ElementCount(194, 97), 2n);
  });
});

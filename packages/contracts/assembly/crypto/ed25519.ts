// Ed25519 public-key derivation as NEAR's MPC signer does it: derived = root + B·(tweak mod ℓ), the tweak
// read little-endian. Pure AssemblyScript: no host functions, no allocation in the inner loops.
//
// Field elements mod p = 2^255 − 19 are 10 signed limbs in i64, alternately 26 and 25 bits wide (limb i
// sits at bit ceil(25.5·i)). Products are fully unrolled; limbs stay below 2^27 in magnitude between
// multiplications (at most a sum or difference of two carried values, or three/four in the doubling), which
// keeps every column of a product below 2^62. Points are in extended twisted-Edwards coordinates
// (X : Y : Z : T), x = X/Z, y = Y/Z, xy = T/Z, with the complete unified addition for a = −1.
//
// The tweak is public (derived from the account id and path), so the scalar multiplication is a plain
// double-and-add and makes no attempt at constant time.

type Fe = StaticArray<i64>;

const MASK26: i64 = 0x3ffffff;
const MASK25: i64 = 0x1ffffff;

// Constants, 32 bytes little-endian each.
/** d = −121665/121666 mod p. */
const D_BYTES: StaticArray<u8> = [
  0xa3, 0x78, 0x59, 0x13, 0xca, 0x4d, 0xeb, 0x75, 0xab, 0xd8, 0x41, 0x41, 0x4d, 0x0a, 0x70, 0x00, 0x98, 0xe8,
  0x79, 0x77, 0x79, 0x40, 0xc7, 0x8c, 0x73, 0xfe, 0x6f, 0x2b, 0xee, 0x6c, 0x03, 0x52,
];
/** 2d mod p. */
const D2_BYTES: StaticArray<u8> = [
  0x59, 0xf1, 0xb2, 0x26, 0x94, 0x9b, 0xd6, 0xeb, 0x56, 0xb1, 0x83, 0x82, 0x9a, 0x14, 0xe0, 0x00, 0x30, 0xd1,
  0xf3, 0xee, 0xf2, 0x80, 0x8e, 0x19, 0xe7, 0xfc, 0xdf, 0x56, 0xdc, 0xd9, 0x06, 0x24,
];
/** sqrt(−1) = 2^((p−1)/4) mod p. */
const SQRTM1_BYTES: StaticArray<u8> = [
  0xb0, 0xa0, 0x0e, 0x4a, 0x27, 0x1b, 0xee, 0xc4, 0x78, 0xe4, 0x2f, 0xad, 0x06, 0x18, 0x43, 0x2f, 0xa7, 0xd7,
  0xfb, 0x3d, 0x99, 0x00, 0x4d, 0x2b, 0x0b, 0xdf, 0xc1, 0x4f, 0x80, 0x24, 0x83, 0x2b,
];
/** The base point B: x (even) and y = 4/5. */
const BX_BYTES: StaticArray<u8> = [
  0x1a, 0xd5, 0x25, 0x8f, 0x60, 0x2d, 0x56, 0xc9, 0xb2, 0xa7, 0x25, 0x95, 0x60, 0xc7, 0x2c, 0x69, 0x5c, 0xdc,
  0xd6, 0xfd, 0x31, 0xe2, 0xa4, 0xc0, 0xfe, 0x53, 0x6e, 0xcd, 0xd3, 0x36, 0x69, 0x21,
];
const BY_BYTES: StaticArray<u8> = [
  0x58, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
  0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
];
/** The group order ℓ = 2^252 + 27742317777372353535851937790883648493, as 32-bit limbs, least significant first. */
const L_LIMBS: StaticArray<u32> = [0x5cf5d3ed, 0x5812631a, 0xa2f79cd6, 0x14def9de, 0, 0, 0, 0x10000000];

/** Bit position of limb i. */
const LIMB_POS: StaticArray<i32> = [0, 26, 51, 77, 102, 128, 153, 179, 204, 230];

function fe(): Fe {
  return new StaticArray<i64>(10);
}

function feCopy(h: Fe, f: Fe): void {
  for (let i = 0; i < 10; i++) unchecked((h[i] = f[i]));
}

function feSet(h: Fe, v: i64): void {
  unchecked((h[0] = v));
  for (let i = 1; i < 10; i++) unchecked((h[i] = 0));
}

// The limb arithmetic reads and writes the StaticArray storage with load/store at constant offsets: element
// accessors become calls in size-optimised builds (-O3z), which would double the metered cost.

function feAdd(h: Fe, f: Fe, g: Fe): void {
  const fp = changetype<usize>(f);
  const gp = changetype<usize>(g);
  const hp = changetype<usize>(h);
  store<i64>(hp, load<i64>(fp, 0) + load<i64>(gp, 0), 0);
  store<i64>(hp, load<i64>(fp, 8) + load<i64>(gp, 8), 8);
  store<i64>(hp, load<i64>(fp, 16) + load<i64>(gp, 16), 16);
  store<i64>(hp, load<i64>(fp, 24) + load<i64>(gp, 24), 24);
  store<i64>(hp, load<i64>(fp, 32) + load<i64>(gp, 32), 32);
  store<i64>(hp, load<i64>(fp, 40) + load<i64>(gp, 40), 40);
  store<i64>(hp, load<i64>(fp, 48) + load<i64>(gp, 48), 48);
  store<i64>(hp, load<i64>(fp, 56) + load<i64>(gp, 56), 56);
  store<i64>(hp, load<i64>(fp, 64) + load<i64>(gp, 64), 64);
  store<i64>(hp, load<i64>(fp, 72) + load<i64>(gp, 72), 72);
}

function feSub(h: Fe, f: Fe, g: Fe): void {
  const fp = changetype<usize>(f);
  const gp = changetype<usize>(g);
  const hp = changetype<usize>(h);
  store<i64>(hp, load<i64>(fp, 0) - load<i64>(gp, 0), 0);
  store<i64>(hp, load<i64>(fp, 8) - load<i64>(gp, 8), 8);
  store<i64>(hp, load<i64>(fp, 16) - load<i64>(gp, 16), 16);
  store<i64>(hp, load<i64>(fp, 24) - load<i64>(gp, 24), 24);
  store<i64>(hp, load<i64>(fp, 32) - load<i64>(gp, 32), 32);
  store<i64>(hp, load<i64>(fp, 40) - load<i64>(gp, 40), 40);
  store<i64>(hp, load<i64>(fp, 48) - load<i64>(gp, 48), 48);
  store<i64>(hp, load<i64>(fp, 56) - load<i64>(gp, 56), 56);
  store<i64>(hp, load<i64>(fp, 64) - load<i64>(gp, 64), 64);
  store<i64>(hp, load<i64>(fp, 72) - load<i64>(gp, 72), 72);
}

/** h = f·g. h may alias f or g. */
function feMul(h: Fe, f: Fe, g: Fe): void {
  const fp = changetype<usize>(f);
  const gp = changetype<usize>(g);
  const f0 = load<i64>(fp, 0);
  const f1 = load<i64>(fp, 8);
  const f2 = load<i64>(fp, 16);
  const f3 = load<i64>(fp, 24);
  const f4 = load<i64>(fp, 32);
  const f5 = load<i64>(fp, 40);
  const f6 = load<i64>(fp, 48);
  const f7 = load<i64>(fp, 56);
  const f8 = load<i64>(fp, 64);
  const f9 = load<i64>(fp, 72);
  const g0 = load<i64>(gp, 0);
  const g1 = load<i64>(gp, 8);
  const g2 = load<i64>(gp, 16);
  const g3 = load<i64>(gp, 24);
  const g4 = load<i64>(gp, 32);
  const g5 = load<i64>(gp, 40);
  const g6 = load<i64>(gp, 48);
  const g7 = load<i64>(gp, 56);
  const g8 = load<i64>(gp, 64);
  const g9 = load<i64>(gp, 72);
  const f1_2 = f1 * 2;
  const f3_2 = f3 * 2;
  const f5_2 = f5 * 2;
  const f7_2 = f7 * 2;
  const f9_2 = f9 * 2;
  const g1_19 = g1 * 19;
  const g2_19 = g2 * 19;
  const g3_19 = g3 * 19;
  const g4_19 = g4 * 19;
  const g5_19 = g5 * 19;
  const g6_19 = g6 * 19;
  const g7_19 = g7 * 19;
  const g8_19 = g8 * 19;
  const g9_19 = g9 * 19;
  let h0 =
    f0 * g0 +
    f1_2 * g9_19 +
    f2 * g8_19 +
    f3_2 * g7_19 +
    f4 * g6_19 +
    f5_2 * g5_19 +
    f6 * g4_19 +
    f7_2 * g3_19 +
    f8 * g2_19 +
    f9_2 * g1_19;
  let h1 =
    f0 * g1 +
    f1 * g0 +
    f2 * g9_19 +
    f3 * g8_19 +
    f4 * g7_19 +
    f5 * g6_19 +
    f6 * g5_19 +
    f7 * g4_19 +
    f8 * g3_19 +
    f9 * g2_19;
  let h2 =
    f0 * g2 +
    f1_2 * g1 +
    f2 * g0 +
    f3_2 * g9_19 +
    f4 * g8_19 +
    f5_2 * g7_19 +
    f6 * g6_19 +
    f7_2 * g5_19 +
    f8 * g4_19 +
    f9_2 * g3_19;
  let h3 =
    f0 * g3 +
    f1 * g2 +
    f2 * g1 +
    f3 * g0 +
    f4 * g9_19 +
    f5 * g8_19 +
    f6 * g7_19 +
    f7 * g6_19 +
    f8 * g5_19 +
    f9 * g4_19;
  let h4 =
    f0 * g4 +
    f1_2 * g3 +
    f2 * g2 +
    f3_2 * g1 +
    f4 * g0 +
    f5_2 * g9_19 +
    f6 * g8_19 +
    f7_2 * g7_19 +
    f8 * g6_19 +
    f9_2 * g5_19;
  let h5 =
    f0 * g5 +
    f1 * g4 +
    f2 * g3 +
    f3 * g2 +
    f4 * g1 +
    f5 * g0 +
    f6 * g9_19 +
    f7 * g8_19 +
    f8 * g7_19 +
    f9 * g6_19;
  let h6 =
    f0 * g6 +
    f1_2 * g5 +
    f2 * g4 +
    f3_2 * g3 +
    f4 * g2 +
    f5_2 * g1 +
    f6 * g0 +
    f7_2 * g9_19 +
    f8 * g8_19 +
    f9_2 * g7_19;
  let h7 =
    f0 * g7 + f1 * g6 + f2 * g5 + f3 * g4 + f4 * g3 + f5 * g2 + f6 * g1 + f7 * g0 + f8 * g9_19 + f9 * g8_19;
  let h8 =
    f0 * g8 +
    f1_2 * g7 +
    f2 * g6 +
    f3_2 * g5 +
    f4 * g4 +
    f5_2 * g3 +
    f6 * g2 +
    f7_2 * g1 +
    f8 * g0 +
    f9_2 * g9_19;
  let h9 = f0 * g9 + f1 * g8 + f2 * g7 + f3 * g6 + f4 * g5 + f5 * g4 + f6 * g3 + f7 * g2 + f8 * g1 + f9 * g0;
  h1 += h0 >> 26;
  h0 &= MASK26;
  h2 += h1 >> 25;
  h1 &= MASK25;
  h3 += h2 >> 26;
  h2 &= MASK26;
  h4 += h3 >> 25;
  h3 &= MASK25;
  h5 += h4 >> 26;
  h4 &= MASK26;
  h6 += h5 >> 25;
  h5 &= MASK25;
  h7 += h6 >> 26;
  h6 &= MASK26;
  h8 += h7 >> 25;
  h7 &= MASK25;
  h9 += h8 >> 26;
  h8 &= MASK26;
  h0 += (h9 >> 25) * 19;
  h9 &= MASK25;
  h1 += h0 >> 26;
  h0 &= MASK26;
  const hp = changetype<usize>(h);
  store<i64>(hp, h0, 0);
  store<i64>(hp, h1, 8);
  store<i64>(hp, h2, 16);
  store<i64>(hp, h3, 24);
  store<i64>(hp, h4, 32);
  store<i64>(hp, h5, 40);
  store<i64>(hp, h6, 48);
  store<i64>(hp, h7, 56);
  store<i64>(hp, h8, 64);
  store<i64>(hp, h9, 72);
}

/** h = f². h may alias f. */
function feSq(h: Fe, f: Fe): void {
  const fp = changetype<usize>(f);
  const f0 = load<i64>(fp, 0);
  const f1 = load<i64>(fp, 8);
  const f2 = load<i64>(fp, 16);
  const f3 = load<i64>(fp, 24);
  const f4 = load<i64>(fp, 32);
  const f5 = load<i64>(fp, 40);
  const f6 = load<i64>(fp, 48);
  const f7 = load<i64>(fp, 56);
  const f8 = load<i64>(fp, 64);
  const f9 = load<i64>(fp, 72);
  const f0_2 = f0 * 2;
  const f1_2 = f1 * 2;
  const f1_4 = f1 * 4;
  const f2_2 = f2 * 2;
  const f3_2 = f3 * 2;
  const f3_4 = f3 * 4;
  const f4_2 = f4 * 2;
  const f5_19 = f5 * 19;
  const f5_2 = f5 * 2;
  const f5_4 = f5 * 4;
  const f6_19 = f6 * 19;
  const f6_2 = f6 * 2;
  const f7_19 = f7 * 19;
  const f7_2 = f7 * 2;
  const f7_4 = f7 * 4;
  const f8_19 = f8 * 19;
  const f8_2 = f8 * 2;
  const f9_19 = f9 * 19;
  const f9_2 = f9 * 2;
  let h0 = f0 * f0 + f1_4 * f9_19 + f2_2 * f8_19 + f3_4 * f7_19 + f4_2 * f6_19 + f5_2 * f5_19;
  let h1 = f0_2 * f1 + f2_2 * f9_19 + f3_2 * f8_19 + f4_2 * f7_19 + f5_2 * f6_19;
  let h2 = f0_2 * f2 + f1_2 * f1 + f3_4 * f9_19 + f4_2 * f8_19 + f5_4 * f7_19 + f6 * f6_19;
  let h3 = f0_2 * f3 + f1_2 * f2 + f4_2 * f9_19 + f5_2 * f8_19 + f6_2 * f7_19;
  let h4 = f0_2 * f4 + f1_4 * f3 + f2 * f2 + f5_4 * f9_19 + f6_2 * f8_19 + f7_2 * f7_19;
  let h5 = f0_2 * f5 + f1_2 * f4 + f2_2 * f3 + f6_2 * f9_19 + f7_2 * f8_19;
  let h6 = f0_2 * f6 + f1_4 * f5 + f2_2 * f4 + f3_2 * f3 + f7_4 * f9_19 + f8 * f8_19;
  let h7 = f0_2 * f7 + f1_2 * f6 + f2_2 * f5 + f3_2 * f4 + f8_2 * f9_19;
  let h8 = f0_2 * f8 + f1_4 * f7 + f2_2 * f6 + f3_4 * f5 + f4 * f4 + f9_2 * f9_19;
  let h9 = f0_2 * f9 + f1_2 * f8 + f2_2 * f7 + f3_2 * f6 + f4_2 * f5;
  h1 += h0 >> 26;
  h0 &= MASK26;
  h2 += h1 >> 25;
  h1 &= MASK25;
  h3 += h2 >> 26;
  h2 &= MASK26;
  h4 += h3 >> 25;
  h3 &= MASK25;
  h5 += h4 >> 26;
  h4 &= MASK26;
  h6 += h5 >> 25;
  h5 &= MASK25;
  h7 += h6 >> 26;
  h6 &= MASK26;
  h8 += h7 >> 25;
  h7 &= MASK25;
  h9 += h8 >> 26;
  h8 &= MASK26;
  h0 += (h9 >> 25) * 19;
  h9 &= MASK25;
  h1 += h0 >> 26;
  h0 &= MASK26;
  const hp = changetype<usize>(h);
  store<i64>(hp, h0, 0);
  store<i64>(hp, h1, 8);
  store<i64>(hp, h2, 16);
  store<i64>(hp, h3, 24);
  store<i64>(hp, h4, 32);
  store<i64>(hp, h5, 40);
  store<i64>(hp, h6, 48);
  store<i64>(hp, h7, 56);
  store<i64>(hp, h8, 64);
  store<i64>(hp, h9, 72);
}

/** h = f^(2^n) (n ≥ 1). */
function feSqN(h: Fe, f: Fe, n: i32): void {
  feSq(h, f);
  for (let i = 1; i < n; i++) feSq(h, h);
}

/** One carry pass over all limbs with the top carry folded back (any signed limbs below 2^62). */
function feCarry(h: Fe): void {
  const fp = changetype<usize>(h);
  let h0 = load<i64>(fp, 0);
  let h1 = load<i64>(fp, 8);
  let h2 = load<i64>(fp, 16);
  let h3 = load<i64>(fp, 24);
  let h4 = load<i64>(fp, 32);
  let h5 = load<i64>(fp, 40);
  let h6 = load<i64>(fp, 48);
  let h7 = load<i64>(fp, 56);
  let h8 = load<i64>(fp, 64);
  let h9 = load<i64>(fp, 72);
  h1 += h0 >> 26;
  h0 &= MASK26;
  h2 += h1 >> 25;
  h1 &= MASK25;
  h3 += h2 >> 26;
  h2 &= MASK26;
  h4 += h3 >> 25;
  h3 &= MASK25;
  h5 += h4 >> 26;
  h4 &= MASK26;
  h6 += h5 >> 25;
  h5 &= MASK25;
  h7 += h6 >> 26;
  h6 &= MASK26;
  h8 += h7 >> 25;
  h7 &= MASK25;
  h9 += h8 >> 26;
  h8 &= MASK26;
  h0 += (h9 >> 25) * 19;
  h9 &= MASK25;
  h1 += h0 >> 26;
  h0 &= MASK26;
  const hp = changetype<usize>(h);
  store<i64>(hp, h0, 0);
  store<i64>(hp, h1, 8);
  store<i64>(hp, h2, 16);
  store<i64>(hp, h3, 24);
  store<i64>(hp, h4, 32);
  store<i64>(hp, h5, 40);
  store<i64>(hp, h6, 48);
  store<i64>(hp, h7, 56);
  store<i64>(hp, h8, 64);
  store<i64>(hp, h9, 72);
}

/** Reads bits 0..254 of 32 little-endian bytes at `ptr` (bit 255 is ignored). */
function feFromBytes(h: Fe, ptr: usize): void {
  for (let i = 0; i < 10; i++) {
    const pos = unchecked(LIMB_POS[i]);
    const width = (i & 1) === 0 ? 26 : 25;
    let acc: u64 = 0;
    // Up to 5 bytes cover the limb; bytes past the end are not read.
    const first = pos >> 3;
    for (let k = 0; k < 5; k++) {
      const idx = first + k;
      if (idx < 32) acc |= (<u64>load<u8>(ptr + <usize>idx)) << (<u64>(k << 3));
    }
    unchecked((h[i] = <i64>((acc >> <u64>(pos & 7)) & (((<u64>1) << (<u64>width)) - 1))));
  }
}

/** Writes the canonical (fully reduced) 32-byte little-endian encoding of h to `out`. */
function feToBytes(out: Uint8Array, f: Fe, t: Fe): void {
  feCopy(t, f);
  // Three passes make every limb non-negative and in range, with a value below 2^255 + 2^26 < 2p.
  feCarry(t);
  feCarry(t);
  feCarry(t);
  // q = floor((v + 19) / 2^255) is 1 exactly when v ≥ p; then v − p = v + 19 − 2^255.
  let q: i64 = (unchecked(t[0]) + 19) >> 26;
  for (let i = 1; i < 10; i++) q = (unchecked(t[i]) + q) >> ((i & 1) === 0 ? 26 : 25);
  unchecked((t[0] += 19 * q));
  for (let i = 0; i < 9; i++) {
    const w: i64 = (i & 1) === 0 ? 26 : 25;
    unchecked((t[i + 1] += t[i] >> w));
    unchecked((t[i] &= ((<i64>1) << w) - 1));
  }
  unchecked((t[9] &= MASK25));
  // Pack the limbs.
  for (let i = 0; i < 32; i++) out[i] = 0;
  for (let i = 0; i < 10; i++) {
    const pos = unchecked(LIMB_POS[i]);
    const v = (<u64>unchecked(t[i])) << (<u64>(pos & 7));
    const first = pos >> 3;
    for (let k = 0; k < 5; k++) {
      const idx = first + k;
      if (idx < 32) out[idx] |= <u8>(v >> <u64>(k << 3));
    }
  }
}

/** Computes z^(2^250 − 1) into e250 and z^11 into z11 (the common part of inversion and square root). */
function fePow250(e250: Fe, z11: Fe, z: Fe, t0: Fe, t1: Fe, t2: Fe): void {
  // e(n) = z^(2^n − 1); e(a + b) = e(a)^(2^b) · e(b).
  feSq(t0, z); // z^2
  feSqN(t1, t0, 2); // z^8
  feMul(t1, t1, z); // z^9
  feMul(z11, t1, t0); // z^11
  feSq(t0, z11); // z^22
  feMul(t0, t0, t1); // z^31 = e(5)
  feSqN(t1, t0, 5);
  feMul(t1, t1, t0); // e(10)
  feSqN(t2, t1, 10);
  feMul(t2, t2, t1); // e(20)
  feSqN(e250, t2, 20);
  feMul(e250, e250, t2); // e(40)
  feSqN(e250, e250, 10);
  feMul(e250, e250, t1); // e(50)
  feCopy(t1, e250); // t1 = e(50)
  feSqN(t2, e250, 50);
  feMul(t2, t2, t1); // e(100)
  feSqN(e250, t2, 100);
  feMul(e250, e250, t2); // e(200)
  feSqN(e250, e250, 50);
  feMul(e250, e250, t1); // e(250)
}

class Point {
  X: Fe = fe();
  Y: Fe = fe();
  Z: Fe = fe();
  T: Fe = fe();
}

/** Scratch field elements, allocated once per derivation. */
class Scratch {
  a: Fe = fe();
  b: Fe = fe();
  c: Fe = fe();
  d: Fe = fe();
  e: Fe = fe();
  f: Fe = fe();
  g: Fe = fe();
  h: Fe = fe();
  d2: Fe = fe();
}

/** r = 2p (r may be p). 4 squarings and 4 multiplications. */
function pointDouble(r: Point, p: Point, s: Scratch): void {
  feSq(s.a, p.X); // A = X²
  feSq(s.b, p.Y); // B = Y²
  feSq(s.c, p.Z);
  feAdd(s.c, s.c, s.c); // C = 2Z²
  feAdd(s.h, s.a, s.b); // H = A + B
  feAdd(s.e, p.X, p.Y);
  feSq(s.e, s.e);
  feSub(s.e, s.h, s.e); // E = A + B − (X + Y)²
  feSub(s.g, s.a, s.b); // G = A − B
  feAdd(s.f, s.c, s.g); // F = C + G
  feMul(r.X, s.e, s.f);
  feMul(r.Y, s.g, s.h);
  feMul(r.T, s.e, s.h);
  feMul(r.Z, s.f, s.g);
}

/** r = p + q (any of them may alias). 9 multiplications; complete (also for doubling and the identity). */
function pointAdd(r: Point, p: Point, q: Point, s: Scratch): void {
  feSub(s.a, p.Y, p.X);
  feSub(s.b, q.Y, q.X);
  feMul(s.a, s.a, s.b); // A = (Y1 − X1)(Y2 − X2)
  feAdd(s.b, p.Y, p.X);
  feAdd(s.c, q.Y, q.X);
  feMul(s.b, s.b, s.c); // B = (Y1 + X1)(Y2 + X2)
  feMul(s.c, p.T, q.T);
  feMul(s.c, s.c, s.d2); // C = 2d·T1·T2
  feMul(s.d, p.Z, q.Z);
  feAdd(s.d, s.d, s.d); // D = 2·Z1·Z2
  feSub(s.e, s.b, s.a); // E = B − A
  feSub(s.f, s.d, s.c); // F = D − C
  feAdd(s.g, s.d, s.c); // G = D + C
  feAdd(s.h, s.b, s.a); // H = B + A
  feMul(r.X, s.e, s.f);
  feMul(r.Y, s.g, s.h);
  feMul(r.T, s.e, s.h);
  feMul(r.Z, s.f, s.g);
}

function bytesEqual(a: Uint8Array, b: Uint8Array): bool {
  let diff: u32 = 0;
  for (let i = 0; i < 32; i++) diff |= <u32>(a[i] ^ b[i]);
  return diff === 0;
}

/** Decodes a 32-byte compressed point (RFC 8032 §5.1.3). Refuses a y ≥ p, an x that does not exist and
 * the encoding of x = 0 with the sign bit set. Returns false on refusal. */
function pointDecompress(r: Point, enc: Uint8Array, s: Scratch): bool {
  const bytesA = new Uint8Array(32);
  const bytesB = new Uint8Array(32);
  const y = r.Y;
  feFromBytes(y, enc.dataStart);
  feToBytes(bytesA, y, s.a);
  const sign = enc[31] >> 7;
  for (let i = 0; i < 31; i++) bytesB[i] = enc[i];
  bytesB[31] = enc[31] & 0x7f;
  if (!bytesEqual(bytesA, bytesB)) return false; // y not canonical
  const u = s.b;
  const v = s.c;
  const one = s.d;
  feSet(one, 1);
  feSq(u, y);
  feFromBytes(v, changetype<usize>(D_BYTES));
  feMul(v, v, u);
  feSub(u, u, one); // u = y² − 1
  feAdd(v, v, one); // v = d·y² + 1
  feCarry(v);
  // x = u·v³·(u·v⁷)^((p − 5)/8), (p − 5)/8 = 2^252 − 3.
  const v3 = s.e;
  feSq(v3, v);
  feMul(v3, v3, v); // v³
  const w = s.f;
  feSq(w, v3);
  feMul(w, w, v);
  feMul(w, w, u); // u·v⁷
  const e250 = s.g;
  const z11 = s.h;
  fePow250(e250, z11, w, r.X, r.Z, r.T);
  feSqN(e250, e250, 2);
  feMul(e250, e250, w); // (u·v⁷)^(2^252 − 3)
  const x = r.X;
  feMul(x, e250, v3);
  feMul(x, x, u);
  // Check v·x² = ±u.
  const check = s.a;
  feSq(check, x);
  feMul(check, check, v);
  feToBytes(bytesA, check, s.g);
  feToBytes(bytesB, u, s.g);
  if (!bytesEqual(bytesA, bytesB)) {
    feSet(one, 0);
    feSub(u, one, u);
    feToBytes(bytesB, u, s.g);
    if (!bytesEqual(bytesA, bytesB)) return false;
    feFromBytes(s.g, changetype<usize>(SQRTM1_BYTES));
    feMul(x, x, s.g);
  }
  feToBytes(bytesA, x, s.g);
  const odd = bytesA[0] & 1;
  let zero: u32 = 0;
  for (let i = 0; i < 32; i++) zero |= bytesA[i];
  if (zero === 0 && sign === 1) return false;
  if (<u32>odd !== <u32>sign) {
    feSet(one, 0);
    feSub(x, one, x);
    feCarry(x);
  }
  feSet(r.Z, 1);
  feMul(r.T, x, y);
  return true;
}

/** The 32-byte encoding of p: y with the parity of x in the top bit. */
function pointCompress(p: Point, s: Scratch): Uint8Array {
  const zInv = s.a;
  fePow250(s.b, s.c, p.Z, s.d, s.e, s.f);
  feSqN(s.b, s.b, 5);
  feMul(zInv, s.b, s.c); // Z^(2^255 − 21) = Z^(p − 2)
  feMul(s.d, p.X, zInv);
  feMul(s.e, p.Y, zInv);
  const out = new Uint8Array(32);
  const xb = new Uint8Array(32);
  feToBytes(out, s.e, s.f);
  feToBytes(xb, s.d, s.f);
  out[31] |= (xb[0] & 1) << 7;
  return out;
}

/** Reduces a 256-bit little-endian number modulo ℓ. Returns 32 bytes little-endian. */
export function ed25519ScalarReduce(k: Uint8Array): Uint8Array {
  const t = new StaticArray<u32>(8);
  for (let i = 0; i < 8; i++) {
    unchecked(
      (t[i] =
        <u32>k[4 * i] |
        ((<u32>k[4 * i + 1]) << 8) |
        ((<u32>k[4 * i + 2]) << 16) |
        ((<u32>k[4 * i + 3]) << 24)),
    );
  }
  // t < 2^256 < 16ℓ: long division by ℓ, subtracting 8ℓ, 4ℓ, 2ℓ and ℓ when they fit.
  const m = new StaticArray<u32>(8);
  for (let shift = 3; shift >= 0; shift--) {
    // m = ℓ·2^shift (fits in 256 bits).
    let carry: u32 = 0;
    for (let i = 0; i < 8; i++) {
      const l = unchecked(L_LIMBS[i]);
      unchecked((m[i] = (l << (<u32>shift)) | carry));
      carry = shift === 0 ? 0 : l >> <u32>(32 - shift);
    }
    // t ≥ m ?
    let geq = true;
    for (let i = 7; i >= 0; i--) {
      const a = unchecked(t[i]);
      const b = unchecked(m[i]);
      if (a !== b) {
        geq = a > b;
        break;
      }
    }
    if (geq) {
      let borrow: i64 = 0;
      for (let i = 0; i < 8; i++) {
        const d = <i64>unchecked(t[i]) - <i64>unchecked(m[i]) - borrow;
        borrow = d < 0 ? 1 : 0;
        unchecked((t[i] = <u32>d));
      }
    }
  }
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = <u8>(unchecked(t[i >> 2]) >> <u32>((i & 3) << 3));
  return out;
}

/**
 * root + B·(tweak mod ℓ), with `root` a 32-byte compressed Edwards point and `tweak` 32 bytes read
 * little-endian. Returns the 32-byte compressed result, or an empty array when `root` is not a valid
 * encoding (or either input has the wrong length).
 */
export function ed25519DerivePublicKey(root: Uint8Array, tweak: Uint8Array): Uint8Array {
  if (root.length !== 32 || tweak.length !== 32) return new Uint8Array(0);
  const s = new Scratch();
  const a = new Point();
  if (!pointDecompress(a, root, s)) return new Uint8Array(0);
  feFromBytes(s.d2, changetype<usize>(D2_BYTES));

  const base = new Point();
  feFromBytes(base.X, changetype<usize>(BX_BYTES));
  feFromBytes(base.Y, changetype<usize>(BY_BYTES));
  feSet(base.Z, 1);
  feMul(base.T, base.X, base.Y);

  // acc = B·k, most significant bit first (k < ℓ < 2^253).
  const k = ed25519ScalarReduce(tweak);
  const acc = new Point();
  feSet(acc.Y, 1);
  feSet(acc.Z, 1);
  for (let i = 252; i >= 0; i--) {
    pointDouble(acc, acc, s);
    if (((k[i >> 3] >> <u8>(i & 7)) & 1) !== 0) pointAdd(acc, acc, base, s);
  }
  pointAdd(acc, acc, a, s);
  return pointCompress(acc, s);
}

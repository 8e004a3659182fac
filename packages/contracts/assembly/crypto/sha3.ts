// SHA3-256 (FIPS 202): the Keccak-f[1600] permutation, a 136-byte rate and the SHA-3 domain padding
// (0x06 … 0x80). Pure AssemblyScript: no host functions. NEAR's `keccak256` host function pads with 0x01
// (pre-standard Keccak) and `sha3_256` is not available at protocol 85, hence this implementation.

const RATE: i32 = 136;

/** The 24 round constants of the iota step (FIPS 202, §3.2.5). */
const ROUND_CONSTANTS: StaticArray<u64> = [
  0x0000000000000001, 0x0000000000008082, 0x800000000000808a, 0x8000000080008000, 0x000000000000808b,
  0x0000000080000001, 0x8000000080008081, 0x8000000000008009, 0x000000000000008a, 0x0000000000000088,
  0x0000000080008009, 0x000000008000000a, 0x000000008000808b, 0x800000000000008b, 0x8000000000008089,
  0x8000000000008003, 0x8000000000008002, 0x8000000000000080, 0x000000000000800a, 0x800000008000000a,
  0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
];

/** Rotation of lane x + 5y in the rho step. */
const RHO: StaticArray<i32> = [
  0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
];

/** For the combined rho/pi step: lane x + 5y moves to lane y + 5(2x + 3y). */
const PI_TARGET: StaticArray<i32> = [
  0, 10, 20, 5, 15, 16, 1, 11, 21, 6, 7, 17, 2, 12, 22, 23, 8, 18, 3, 13, 14, 24, 9, 19, 4,
];

// The state is read and written with load/store (not element accessors, which become calls in -O3z builds).
function keccakF(a: StaticArray<u64>, b: StaticArray<u64>, c: StaticArray<u64>): void {
  const ap = changetype<usize>(a);
  const bp = changetype<usize>(b);
  const cp = changetype<usize>(c);
  const rhoP = changetype<usize>(RHO);
  const piP = changetype<usize>(PI_TARGET);
  for (let round = 0; round < 24; round++) {
    // theta
    for (let x: usize = 0; x < 40; x += 8) {
      const l = ap + x;
      store<u64>(
        cp + x,
        load<u64>(l) ^ load<u64>(l, 40) ^ load<u64>(l, 80) ^ load<u64>(l, 120) ^ load<u64>(l, 160),
      );
    }
    for (let x: usize = 0; x < 5; x++) {
      const d = load<u64>(cp + (((x + 4) % 5) << 3)) ^ rotl<u64>(load<u64>(cp + (((x + 1) % 5) << 3)), 1);
      for (let y: usize = 0; y < 200; y += 40) {
        const l = ap + y + (x << 3);
        store<u64>(l, load<u64>(l) ^ d);
      }
    }
    // rho and pi
    for (let i: usize = 0; i < 25; i++) {
      const to = <usize>load<i32>(piP + (i << 2));
      store<u64>(bp + (to << 3), rotl<u64>(load<u64>(ap + (i << 3)), <u64>load<i32>(rhoP + (i << 2))));
    }
    // chi
    for (let y: usize = 0; y < 200; y += 40) {
      const row = bp + y;
      const b0 = load<u64>(row);
      const b1 = load<u64>(row, 8);
      const b2 = load<u64>(row, 16);
      const b3 = load<u64>(row, 24);
      const b4 = load<u64>(row, 32);
      const out = ap + y;
      store<u64>(out, b0 ^ (~b1 & b2));
      store<u64>(out, b1 ^ (~b2 & b3), 8);
      store<u64>(out, b2 ^ (~b3 & b4), 16);
      store<u64>(out, b3 ^ (~b4 & b0), 24);
      store<u64>(out, b4 ^ (~b0 & b1), 32);
    }
    // iota
    store<u64>(ap, load<u64>(ap) ^ unchecked(ROUND_CONSTANTS[round]));
  }
}

/** XORs `len` (≤ RATE) bytes of `data` from `off` into the state, lanes read little-endian. */
function absorb(a: StaticArray<u64>, data: Uint8Array, off: i32, len: i32): void {
  for (let i = 0; i < len; i++) {
    const lane = i >> 3;
    unchecked((a[lane] ^= (<u64>data[off + i]) << (<u64>((i & 7) << 3))));
  }
}

export function sha3_256(data: Uint8Array): Uint8Array {
  const a = new StaticArray<u64>(25);
  const b = new StaticArray<u64>(25);
  const c = new StaticArray<u64>(5);
  const n = data.length;
  let off = 0;
  while (n - off >= RATE) {
    absorb(a, data, off, RATE);
    keccakF(a, b, c);
    off += RATE;
  }
  const rest = n - off;
  absorb(a, data, off, rest);
  // Padding: 0x06 right after the message, 0x80 in the last byte of the block (0x86 when they coincide).
  unchecked((a[rest >> 3] ^= (<u64>0x06) << (<u64>((rest & 7) << 3))));
  unchecked((a[(RATE - 1) >> 3] ^= (<u64>0x80) << (<u64>(((RATE - 1) & 7) << 3))));
  keccakF(a, b, c);
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    unchecked((out[i] = <u8>(a[i >> 3] >> <u64>((i & 7) << 3))));
  }
  return out;
}

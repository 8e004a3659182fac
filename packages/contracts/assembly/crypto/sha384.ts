// SHA-384 (FIPS 180-4): SHA-512's compression with SHA-384's initial values, truncated to 48 bytes. Pure
// AssemblyScript: NEAR has no sha384 host function, and TDX measurement registers (RTMRs) and dstack's event
// digests are SHA-384.

/** The 80 round constants: the first 64 bits of the fractional parts of the cube roots of the first 80 primes. */
const K: StaticArray<u64> = [
  0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
  0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
  0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
  0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
  0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
  0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
  0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
  0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
  0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
  0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
  0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
  0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
  0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
  0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
  0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
  0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
  0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
  0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
  0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
  0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
];

/** SHA-384's initial hash value (FIPS 180-4, §5.3.4). */
const IV: StaticArray<u64> = [
  0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939,
  0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4,
];

// Words are read and written with load/store (element accessors become calls in -O3z builds).
function compress(h: StaticArray<u64>, w: StaticArray<u64>, block: usize): void {
  const wp = changetype<usize>(w);
  const kp = changetype<usize>(K);
  const hp = changetype<usize>(h);
  for (let t: usize = 0; t < 16; t++) store<u64>(wp + (t << 3), bswap<u64>(load<u64>(block + (t << 3))));
  for (let t: usize = 16; t < 80; t++) {
    const w15 = load<u64>(wp + ((t - 15) << 3));
    const w2 = load<u64>(wp + ((t - 2) << 3));
    const s0 = rotr<u64>(w15, 1) ^ rotr<u64>(w15, 8) ^ (w15 >> 7);
    const s1 = rotr<u64>(w2, 19) ^ rotr<u64>(w2, 61) ^ (w2 >> 6);
    store<u64>(wp + (t << 3), load<u64>(wp + ((t - 16) << 3)) + s0 + load<u64>(wp + ((t - 7) << 3)) + s1);
  }
  let a = load<u64>(hp);
  let b = load<u64>(hp, 8);
  let c = load<u64>(hp, 16);
  let d = load<u64>(hp, 24);
  let e = load<u64>(hp, 32);
  let f = load<u64>(hp, 40);
  let g = load<u64>(hp, 48);
  let hh = load<u64>(hp, 56);
  for (let t: usize = 0; t < 80; t++) {
    const S1 = rotr<u64>(e, 14) ^ rotr<u64>(e, 18) ^ rotr<u64>(e, 41);
    const ch = (e & f) ^ (~e & g);
    const t1 = hh + S1 + ch + load<u64>(kp + (t << 3)) + load<u64>(wp + (t << 3));
    const S0 = rotr<u64>(a, 28) ^ rotr<u64>(a, 34) ^ rotr<u64>(a, 39);
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = S0 + maj;
    hh = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  store<u64>(hp, load<u64>(hp) + a);
  store<u64>(hp, load<u64>(hp, 8) + b, 8);
  store<u64>(hp, load<u64>(hp, 16) + c, 16);
  store<u64>(hp, load<u64>(hp, 24) + d, 24);
  store<u64>(hp, load<u64>(hp, 32) + e, 32);
  store<u64>(hp, load<u64>(hp, 40) + f, 40);
  store<u64>(hp, load<u64>(hp, 48) + g, 48);
  store<u64>(hp, load<u64>(hp, 56) + hh, 56);
}

export function sha384(data: Uint8Array): Uint8Array {
  const h = new StaticArray<u64>(8);
  for (let i = 0; i < 8; i++) h[i] = IV[i];
  const w = new StaticArray<u64>(80);
  const n = data.length;
  // The message, 0x80, zeros, and the length in bits as a 128-bit big-endian number, in 128-byte blocks.
  const padded = ((n + 17 + 127) >> 7) << 7;
  const buf = new Uint8Array(padded);
  memory.copy(buf.dataStart, data.dataStart, <usize>n);
  buf[n] = 0x80;
  store<u64>(buf.dataStart + <usize>padded - 8, bswap<u64>(<u64>n << 3));
  for (let off = 0; off < padded; off += 128) compress(h, w, buf.dataStart + <usize>off);
  const out = new Uint8Array(48);
  for (let i = 0; i < 6; i++) store<u64>(out.dataStart + <usize>(i << 3), bswap<u64>(h[i]));
  return out;
}

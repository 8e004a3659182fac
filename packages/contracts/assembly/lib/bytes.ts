// Byte helpers shared by the library: pointers, UTF-8, concatenation, comparison, little/big-endian ints.

/** Address of the first byte of `b` as the u64 the host functions take. */
@inline export function ptr(b: Uint8Array): u64 {
  return <u64>b.dataStart;
}

@inline export function len(b: Uint8Array): u64 {
  return <u64>b.length;
}

export function utf8(s: string): Uint8Array {
  return Uint8Array.wrap(String.UTF8.encode(s));
}

export function fromUtf8(b: Uint8Array): string {
  return String.UTF8.decodeUnsafe(b.dataStart, <usize>b.length);
}

export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): bool {
  if (a.length != b.length) return false;
  for (let i = 0; i < a.length; i++) if (unchecked(a[i]) != unchecked(b[i])) return false;
  return true;
}

export function u32be(n: u32): Uint8Array {
  const out = new Uint8Array(4);
  out[0] = <u8>(n >>> 24);
  out[1] = <u8>(n >>> 16);
  out[2] = <u8>(n >>> 8);
  out[3] = <u8>n;
  return out;
}

export function readU32be(b: Uint8Array, at: i32): u32 {
  return (<u32>b[at] << 24) | (<u32>b[at + 1] << 16) | (<u32>b[at + 2] << 8) | <u32>b[at + 3];
}

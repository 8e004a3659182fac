// Lowercase hex encoding; decoding accepts either case.
const DIGITS = "0123456789abcdef";

export function toHex(b: Uint8Array): string {
  let out = "";
  for (let i = 0; i < b.length; i++) {
    const v = b[i];
    out += DIGITS.charAt(v >> 4) + DIGITS.charAt(v & 15);
  }
  return out;
}

function nibble(c: i32): i32 {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** Decodes hex (no 0x prefix); null when the string is not hex of whole bytes. */
export function fromHex(s: string): Uint8Array | null {
  if (s.length % 2 != 0) return null;
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = nibble(s.charCodeAt(2 * i));
    const lo = nibble(s.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) return null;
    out[i] = <u8>((hi << 4) | lo);
  }
  return out;
}

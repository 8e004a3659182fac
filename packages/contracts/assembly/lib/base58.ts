// Base58 (Bitcoin alphabet), as NEAR writes keys ("ed25519:…", "secp256k1:…").
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

export function base58Encode(b: Uint8Array): string {
  let zeros = 0;
  while (zeros < b.length && b[zeros] == 0) zeros++;
  // Base-58 digits, least significant first.
  const digits = new Array<i32>();
  for (let i = zeros; i < b.length; i++) {
    let carry = <i32>b[i];
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j] << 8;
      digits[j] = carry % 58;
      carry = carry / 58;
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = carry / 58;
    }
  }
  let out = "";
  for (let i = 0; i < zeros; i++) out += "1";
  for (let i = digits.length - 1; i >= 0; i--) out += ALPHABET.charAt(digits[i]);
  return out;
}

/** Decodes base58; null on a character outside the alphabet. */
export function base58Decode(s: string): Uint8Array | null {
  let zeros = 0;
  while (zeros < s.length && s.charCodeAt(zeros) == 49) zeros++;
  const bytes = new Array<i32>(); // least significant first
  for (let i = zeros; i < s.length; i++) {
    const v = ALPHABET.indexOf(s.charAt(i));
    if (v < 0) return null;
    let carry = v;
    for (let j = 0; j < bytes.length; j++) {
      carry += bytes[j] * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  const out = new Uint8Array(zeros + bytes.length);
  for (let i = 0; i < bytes.length; i++) out[zeros + i] = <u8>bytes[bytes.length - 1 - i];
  return out;
}

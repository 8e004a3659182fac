/**
 * Base58 (Bitcoin alphabet, as the `bs58` crate) for inputs longer than @scure/base accepts (2048 bytes /
 * 4096 characters): ML-DSA-65 keys (1952 bytes), signatures (3309) and secret keys (4032) in their string
 * forms. The same schoolbook conversion, with the digits held in a typed array; leading zero bytes are '1's.
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i;

export function base58EncodeLong(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // log(256) / log(58) ≈ 1.366 digits per byte.
  const digits = new Uint8Array(Math.ceil((bytes.length - zeros) * 1.37) + 1);
  let used = 0;
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i];
    for (let j = 0; j < used; j++) {
      carry += digits[j] << 8;
      digits[j] = carry % 58;
      carry = (carry / 58) | 0;
    }
    while (carry > 0) {
      digits[used++] = carry % 58;
      carry = (carry / 58) | 0;
    }
  }
  let out = '1'.repeat(zeros);
  for (let j = used - 1; j >= 0; j--) out += ALPHABET[digits[j]];
  return out;
}

/** null when `text` has a character outside the alphabet. */
export function base58DecodeLong(text: string): Uint8Array | null {
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 0x31) zeros++;
  const bytes = new Uint8Array(Math.ceil((text.length - zeros) * 0.733) + 1);
  let used = 0;
  for (let i = zeros; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? INDEX[code] : -1;
    if (value < 0) return null;
    let carry = value;
    for (let j = 0; j < used; j++) {
      carry += bytes[j] * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes[used++] = carry & 0xff;
      carry >>= 8;
    }
  }
  const out = new Uint8Array(zeros + used);
  for (let j = 0; j < used; j++) out[zeros + j] = bytes[used - 1 - j];
  return out;
}

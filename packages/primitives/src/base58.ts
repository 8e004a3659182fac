/**
 * Base58 with the Bitcoin alphabet, as the `bs58` crate nearcore uses, for bytes and text of any length.
 *
 * Both directions convert between radixes with limbs wider than one digit, which takes several times fewer
 * steps than a digit at a time:
 * - encoding takes the bytes two at a time (× 65,536) into limbs of 58² (two base58 digits each), in int32
 *   arithmetic (a limb × 65,536 plus a carry stays below 2^31, and V8 divides by the constant with a multiply);
 * - decoding takes the text five characters at a time (× 58^5) into limbs of 2^16 (two bytes each), in
 *   doubles (every product and carry stays below 2^53, so each step is exact).
 * A block's hashes, ids and keys are written as base58 text many times over: @scure/base's encoder, a digit at
 * a time, was about a tenth of the node's thread under the benchmark's transfers. For 32 and 33 bytes this
 * encoder takes 0.46 µs against its 1.15 (the text read once), and the decoder 0.36 against 0.46 (scratch
 * measurements, 1,000 random values × 200 or more).
 *
 * Leading zero bytes are leading '1's, one for one, both ways.
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** Digit of each ASCII code, -1 outside the alphabet. */
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DIGIT[ALPHABET.charCodeAt(i)] = i;
/** Character code of each digit. */
const CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const PAIR = 58 * 58;

// Scratch limbs and text, grown to the largest input seen (the conversions are synchronous).
let encodeLimbs = new Int32Array(64);
let decodeLimbs = new Float64Array(32);
let encodeText = Buffer.allocUnsafe(128);

export function base58Encode(bytes: Uint8Array): string {
  const n = bytes.length;
  let zeros = 0;
  while (zeros < n && bytes[zeros] === 0) zeros++;
  // 8 bits / log2(58²) ≈ 0.683 limbs per byte.
  const size = Math.ceil((n - zeros) * 0.69) + 2;
  if (encodeLimbs.length < size) encodeLimbs = new Int32Array(size);
  const out = encodeLimbs;
  let used = 0;
  let i = zeros;
  if ((n - zeros) & 1) {
    for (let carry = bytes[i++]; carry > 0; ) {
      const q = (carry / PAIR) | 0;
      out[used++] = carry - q * PAIR;
      carry = q;
    }
  }
  for (; i < n; i += 2) {
    let carry = (bytes[i] << 8) | bytes[i + 1];
    for (let j = 0; j < used; j++) {
      const x = out[j] * 65_536 + carry;
      carry = (x / PAIR) | 0;
      out[j] = x - carry * PAIR;
    }
    while (carry > 0) {
      const q = (carry / PAIR) | 0;
      out[used++] = carry - q * PAIR;
      carry = q;
    }
  }
  // The characters go into one buffer read as one string: appending them made a string per step.
  if (encodeText.length < zeros + used * 2) encodeText = Buffer.allocUnsafe(zeros + used * 2);
  const text = encodeText;
  let length = 0;
  while (length < zeros) text[length++] = 0x31;
  if (used > 0) {
    // The most significant limb without a leading zero digit, then two digits per limb.
    const top = out[used - 1];
    if (top >= 58) text[length++] = CODES[(top / 58) | 0];
    text[length++] = CODES[top % 58];
    for (let j = used - 2; j >= 0; j--) {
      const limb = out[j];
      const hi = (limb / 58) | 0;
      text[length++] = CODES[hi];
      text[length++] = CODES[limb - hi * 58];
    }
  }
  return text.toString('latin1', 0, length);
}

/** The bytes of base58 `text`, or null when it has a character outside the alphabet. */
export function base58DecodeOrNull(text: string): Uint8Array | null {
  const n = text.length;
  let zeros = 0;
  while (zeros < n && text.charCodeAt(zeros) === 0x31) zeros++;
  // log2(58) / 16 ≈ 0.366 limbs per character.
  const size = Math.ceil((n - zeros) * 0.37) + 2;
  if (decodeLimbs.length < size) decodeLimbs = new Float64Array(size);
  const out = decodeLimbs;
  let used = 0;
  let i = zeros;
  // The first group takes what is left over after whole groups of five.
  let group = (n - zeros) % 5 || 5;
  while (i < n) {
    let value = 0;
    let multiplier = 1;
    for (const end = i + group; i < end; i++) {
      const code = text.charCodeAt(i);
      const digit = code < 128 ? DIGIT[code] : -1;
      if (digit < 0) return null;
      value = value * 58 + digit;
      multiplier *= 58;
    }
    group = 5;
    let carry = value;
    for (let j = 0; j < used; j++) {
      const x = out[j] * multiplier + carry;
      carry = Math.floor(x / 65_536);
      out[j] = x - carry * 65_536;
    }
    while (carry > 0) {
      const q = Math.floor(carry / 65_536);
      out[used++] = carry - q * 65_536;
      carry = q;
    }
  }
  // Two bytes per limb, most significant first; the top limb may hold a single byte.
  const topByte = used > 0 && out[used - 1] < 256 ? 1 : 0;
  const bytes = new Uint8Array(zeros + used * 2 - topByte);
  let at = zeros;
  for (let j = used - 1; j >= 0; j--) {
    const limb = out[j];
    if (j === used - 1 && topByte) {
      bytes[at++] = limb;
      continue;
    }
    bytes[at++] = limb >>> 8;
    bytes[at++] = limb & 0xff;
  }
  return bytes;
}

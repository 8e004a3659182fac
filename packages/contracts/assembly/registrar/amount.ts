// A yoctoNEAR amount written as a decimal string (near-sdk's U128 JSON), read back into a U128.
import { U128 } from "../lib/u128";

/** The value of `text` (decimal digits only), or null when it is not one or exceeds 128 bits. */
export function parseAmount(text: string): U128 | null {
  if (text.length == 0 || text.length > 39) return null;
  // Four 32-bit limbs, least significant first: limb = limb * 10 + carry.
  const limbs = new StaticArray<u64>(4);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return null;
    let carry = <u64>(c - 0x30);
    for (let j = 0; j < 4; j++) {
      const v = limbs[j] * 10 + carry;
      limbs[j] = v & 0xffffffff;
      carry = v >>> 32;
    }
    if (carry != 0) return null;
  }
  return new U128((limbs[1] << 32) | limbs[0], (limbs[3] << 32) | limbs[2]);
}

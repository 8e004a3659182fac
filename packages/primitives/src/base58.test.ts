/** base58.ts against @scure/base (up to its 2,048 bytes) and against a BigInt conversion (any length). */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { base58 } from '@scure/base';
import { base58DecodeOrNull, base58Encode } from './base58.js';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** The plain definition: leading zero bytes as '1's, then the number's digits in base 58. */
function referenceEncode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  let value = bytes.length > zeros ? BigInt(`0x${Buffer.from(bytes.subarray(zeros)).toString('hex')}`) : 0n;
  let digits = '';
  while (value > 0n) {
    digits = ALPHABET[Number(value % 58n)] + digits;
    value /= 58n;
  }
  return '1'.repeat(zeros) + digits;
}

/** Bytes of length `n` with `zeros` leading zero bytes and random ones after. */
function sample(n: number, zeros: number): Uint8Array {
  const bytes = new Uint8Array(randomBytes(n));
  bytes.fill(0, 0, Math.min(zeros, n));
  if (zeros < n && bytes[zeros] === 0) bytes[zeros] = 1;
  return bytes;
}

describe('base58 (limbs of 58² and 2^16)', () => {
  it('agrees with @scure/base on every length up to 200 bytes, with and without leading zeros', () => {
    for (let n = 0; n <= 200; n++) {
      for (const zeros of [0, 1, 2, 7, n]) {
        const bytes = sample(n, zeros);
        const text = base58.encode(bytes);
        assert.equal(base58Encode(bytes), text, `${n} bytes, ${zeros} zeros`);
        assert.deepEqual(base58DecodeOrNull(text), bytes, `${n} bytes, ${zeros} zeros`);
      }
    }
  });

  it('agrees on the values at the edges of a limb: all 0xff, a single 1 bit, 58^k ± 1', () => {
    const cases: Uint8Array[] = [new Uint8Array(32).fill(0xff), new Uint8Array(33).fill(0xff)];
    for (let bit = 0; bit < 8 * 34; bit += 7) {
      const bytes = new Uint8Array(34);
      bytes[33 - (bit >> 3)] = 1 << (bit & 7);
      cases.push(bytes);
    }
    for (let k = 1n; k < 50n; k++) {
      for (const delta of [-1n, 0n, 1n]) {
        const hex = (58n ** k + delta).toString(16);
        cases.push(Uint8Array.from(Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex')));
      }
    }
    for (const bytes of cases) {
      assert.equal(base58Encode(bytes), base58.encode(bytes));
      assert.deepEqual(base58DecodeOrNull(base58.encode(bytes)), bytes);
    }
  });

  it('converts values longer than @scure/base takes (ML-DSA-65 keys and signatures) as the definition says', () => {
    for (const n of [1952, 2049, 3309, 4032]) {
      const bytes = sample(n, 2);
      const text = base58Encode(bytes);
      assert.equal(text, referenceEncode(bytes));
      assert.ok(text.startsWith('11') && text[2] !== '1');
      assert.deepEqual(base58DecodeOrNull(text), bytes);
    }
  });

  it('gives null for a character outside the alphabet, wherever it is', () => {
    const good = base58.encode(sample(32, 1));
    for (const bad of ['0', 'O', 'I', 'l', '+', ' ', 'é', '\u{1F600}']) {
      for (const at of [0, 1, 5, good.length]) {
        assert.equal(base58DecodeOrNull(good.slice(0, at) + bad + good.slice(at)), null, `${bad} at ${at}`);
      }
    }
  });

  it('reads the empty text as no bytes and only 1s as zero bytes', () => {
    assert.deepEqual(base58DecodeOrNull(''), new Uint8Array(0));
    assert.deepEqual(base58DecodeOrNull('111'), new Uint8Array(3));
    assert.equal(base58Encode(new Uint8Array(0)), '');
    assert.equal(base58Encode(new Uint8Array(70)), '1'.repeat(70));
  });
});

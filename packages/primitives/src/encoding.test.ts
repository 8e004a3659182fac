import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bytesEqual, concatBytes, u64LeBytes } from './bytes.js';
import {
  base58Decode,
  base58Encode,
  base64Decode,
  base64Encode,
  hexDecode,
  hexEncode,
  utf8Decode,
  utf8Encode,
  utf8Length,
} from './encoding.js';
import { EncodingError } from './errors.js';

describe('base58', () => {
  it('encodes with the Bitcoin alphabet and keeps leading zeros as 1s', () => {
    assert.equal(base58Encode(new Uint8Array(32)), '11111111111111111111111111111111');
    assert.equal(base58Encode(Uint8Array.from([0, 0, 1])), '112');
    assert.equal(base58Encode(utf8Encode('hello world')), 'StV1DL6CwTryKyV');
  });

  it('round trips', () => {
    for (const bytes of [new Uint8Array(0), Uint8Array.from([0]), Uint8Array.from([255, 0, 1, 2, 3])]) {
      assert.deepEqual(base58Decode(base58Encode(bytes)), bytes);
    }
  });

  it('rejects characters outside the alphabet', () => {
    for (const bad of ['0abc', 'Ol', 'abc+', 'ab c']) {
      assert.throws(() => base58Decode(bad), EncodingError, bad);
    }
  });
});

describe('base64', () => {
  it('encodes and decodes standard base64', () => {
    assert.equal(base64Encode(utf8Encode('ab')), 'YWI=');
    assert.deepEqual(base64Decode('YWI='), utf8Encode('ab'));
    assert.deepEqual(base64Decode(''), new Uint8Array(0));
  });

  it('rejects what Buffer would silently accept', () => {
    const bad = [
      'YWI', // missing padding
      'YW I=', // whitespace
      'YWI=\n', // trailing newline
      'YWJ=', // non-zero trailing bits
      'Y!I=', // invalid character
      '-_8=', // URL-safe alphabet
      'YWI==', // too much padding
      '====',
    ];
    for (const text of bad) assert.throws(() => base64Decode(text), EncodingError, JSON.stringify(text));
  });

  it('returns a plain Uint8Array', () => {
    const out = base64Decode('AQID');
    assert.equal(Object.getPrototypeOf(out), Uint8Array.prototype);
  });
});

describe('hex', () => {
  it('round trips', () => {
    assert.equal(hexEncode(Uint8Array.from([0, 15, 255])), '000fff');
    assert.deepEqual(hexDecode('000fFF'), Uint8Array.from([0, 15, 255]));
  });

  it('rejects odd lengths and non-hex characters', () => {
    for (const bad of ['0', 'abc', 'zz', '0x00', ' 00'])
      assert.throws(() => hexDecode(bad), EncodingError, bad);
  });
});

describe('utf8', () => {
  it('decodes strictly', () => {
    assert.equal(utf8Decode(utf8Encode('héllo ✓')), 'héllo ✓');
    for (const bad of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0x80]]) {
      assert.throws(() => utf8Decode(Uint8Array.from(bad)), EncodingError);
    }
  });

  it('keeps a leading byte order mark, as Rust does', () => {
    assert.equal(utf8Decode(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61])), '\ufeffa');
  });

  it('counts bytes', () => {
    assert.equal(utf8Length('aé✓'), 1 + 2 + 3);
  });
});

describe('bytes', () => {
  it('concatenates, compares and encodes u64', () => {
    assert.deepEqual(
      concatBytes(Uint8Array.from([1]), new Uint8Array(0), Uint8Array.from([2, 3])),
      Uint8Array.from([1, 2, 3]),
    );
    assert.equal(bytesEqual(Uint8Array.from([1, 2]), Uint8Array.from([1, 2])), true);
    assert.equal(bytesEqual(Uint8Array.from([1, 2]), Uint8Array.from([1, 3])), false);
    assert.equal(bytesEqual(Uint8Array.from([1]), Uint8Array.from([1, 0])), false);
    assert.deepEqual(u64LeBytes(0x0102n), Uint8Array.from([2, 1, 0, 0, 0, 0, 0, 0]));
    assert.throws(() => u64LeBytes(-1n), RangeError);
    assert.throws(() => u64LeBytes(1n << 64n), RangeError);
  });
});

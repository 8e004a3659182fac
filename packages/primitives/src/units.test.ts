import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidAmountError } from './errors.js';
import { formatNearAmount, ONE_NEAR, parseNearAmount, TGAS } from './units.js';

describe('units', () => {
  it('constants', () => {
    assert.equal(ONE_NEAR, 1_000_000_000_000_000_000_000_000n);
    assert.equal(TGAS, 1_000_000_000_000n);
  });

  it('parseNearAmount', () => {
    assert.equal(parseNearAmount('0.3'), 300_000_000_000_000_000_000_000n);
    assert.equal(parseNearAmount('1'), ONE_NEAR);
    assert.equal(parseNearAmount('1.'), ONE_NEAR);
    assert.equal(parseNearAmount(' 2.5 '), 2n * ONE_NEAR + ONE_NEAR / 2n);
    assert.equal(parseNearAmount('0.000000000000000000000001'), 1n);
    assert.equal(parseNearAmount('0'), 0n);
    for (const bad of ['', '-1', '1e3', '.5', '1.2.3', 'abc', '0.0000000000000000000000001', '1,000']) {
      assert.throws(() => parseNearAmount(bad), InvalidAmountError, bad);
    }
  });

  it('formatNearAmount', () => {
    assert.equal(formatNearAmount(1_500_000_000_000_000_000_000_000n), '1.5');
    assert.equal(formatNearAmount(ONE_NEAR), '1');
    assert.equal(formatNearAmount(0n), '0');
    assert.equal(formatNearAmount(1n), '0.000000000000000000000001');
    assert.equal(formatNearAmount(1n, 5), '0');
    assert.equal(formatNearAmount(123_456_789_000_000_000_000_000n, 2), '0.12');
    assert.equal(formatNearAmount(125_000_000_000_000_000_000_000n, 2), '0.13');
    assert.equal(formatNearAmount(999_999_999_999_999_999_999_999n, 3), '1');
    assert.equal(formatNearAmount(-ONE_NEAR / 2n), '-0.5');
    for (const amount of ['0.3', '12345.000001', '0.000000000000000000000001']) {
      assert.equal(formatNearAmount(parseNearAmount(amount)), amount);
    }
    assert.throws(() => formatNearAmount(1n, 25), RangeError);
  });
});

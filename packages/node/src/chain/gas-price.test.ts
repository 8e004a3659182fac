import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEphemeralHome } from '../config/init-home.js';
import { nextGasPrice } from './gas-price.js';

const genesis = createEphemeralHome().genesis;
const min = BigInt(genesis.min_gas_price);
const limit = BigInt(genesis.gas_limit);

describe('nextGasPrice', () => {
  it('stays at the minimum for empty chunks', () => {
    assert.equal(nextGasPrice(genesis, min, 0n, limit), min);
  });

  it('rises by the adjustment rate for full chunks and falls for empty ones', () => {
    const p = 10n * min;
    // next = p * (2dL + 2nU - nL) / 2dL with n/d = 1/100
    assert.equal(
      nextGasPrice(genesis, p, limit, limit),
      (p * (200n * limit + 2n * limit - limit)) / (200n * limit),
    );
    assert.equal(nextGasPrice(genesis, p, limit / 2n, limit), p);
    assert.ok(nextGasPrice(genesis, p, 0n, limit) < p);
  });

  it('is kept within [min, max]', () => {
    const max = BigInt(genesis.max_gas_price);
    assert.equal(nextGasPrice(genesis, max, limit, limit), max);
  });
});

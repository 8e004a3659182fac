import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testRandom } from '../../../../test/test-random.js';
import { execFee, feeContextFrom, totalSendFees, transactionCost } from './fees.js';
import { loadRuntimeConfig } from './runtime-config.js';

const rng = testRandom('packages/node/src/config/fees.test.ts');

const config = loadRuntimeConfig();
const params = feeContextFrom(config);
const f = config.fees;
const implicit = 'ab'.repeat(32);

describe('fees', () => {
  it('charges a transfer to a NEAR-implicit account for creating it and its key', () => {
    const transfer = { type: 'Transfer' as const, deposit: 1n };
    assert.equal(totalSendFees(params, false, [transfer], 'bob.near'), f.transfer.sendNotSir);
    assert.equal(
      totalSendFees(params, false, [transfer], implicit),
      f.transfer.sendNotSir + f.create_account.sendNotSir + f.add_full_access_key.sendNotSir,
    );
    assert.equal(
      execFee(params, transfer, implicit),
      f.transfer.execution + f.create_account.execution + f.add_full_access_key.execution,
    );
  });

  it('counts function-call key method names with a terminating byte each', () => {
    const key = rng.keyPair().publicKey;
    const addKey = {
      type: 'AddKey' as const,
      publicKey: key,
      accessKey: {
        nonce: 0n,
        permission: {
          kind: 'FunctionCall' as const,
          allowance: null,
          receiverId: 'c.near',
          methodNames: ['ab', 'cde'],
        },
      },
    };
    assert.equal(
      execFee(params, addKey, 'a.near'),
      f.add_function_call_key_base.execution + 7n * f.add_function_call_key_byte.execution,
    );
  });

  it('buys the receipt gas at min_gas_purchase_price and burns the conversion at the gas price', () => {
    const gasPrice = 100_000_000n;
    const cost = transactionCost(
      params,
      { signerId: 'a.near', receiverId: 'b.near', actions: [{ type: 'Transfer', deposit: 5n }] },
      gasPrice,
    );
    assert.equal(cost.gasBurnt, f.new_action_receipt.sendNotSir + f.transfer.sendNotSir);
    assert.equal(cost.gasRemaining, f.new_action_receipt.execution + f.transfer.execution);
    assert.equal(cost.receiptGasPrice, config.minGasPurchasePrice);
    assert.equal(cost.burntAmount, cost.gasBurnt * gasPrice);
    assert.equal(cost.totalCost, cost.burntAmount + cost.gasRemaining * config.minGasPurchasePrice + 5n);
  });
});

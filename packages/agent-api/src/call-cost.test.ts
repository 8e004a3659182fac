import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TGAS } from '@shadebox/primitives';
import { callCost, callPricingOf } from './call-cost.js';

/** The parts of protocol 85's `EXPERIMENTAL_protocol_config` the cost reads (nearcore's numbers). */
const PROTOCOL_CONFIG = {
  runtime_config: {
    transaction_costs: {
      action_receipt_creation_config: {
        send_sir: 108059500000,
        send_not_sir: 108059500000,
        execution: 108059500000,
      },
      action_creation_config: {
        function_call_cost: { send_sir: 200000000000, send_not_sir: 200000000000, execution: 780000000000 },
        function_call_cost_per_byte: { send_sir: 2235934, send_not_sir: 47683715, execution: 2235934 },
      },
    },
    min_gas_purchase_price: '1000000000',
  },
};

describe('callCost', () => {
  const pricing = callPricingOf(PROTOCOL_CONFIG);
  const call = {
    signerId: 'a'.repeat(64),
    receiverId: 'agent.test.near',
    methodName: 'request_signature',
    argsLength: 100,
    gas: 100n * TGAS,
    deposit: 0n,
  };

  it('reads the fees and min_gas_purchase_price from the protocol config', () => {
    assert.equal(pricing.minGasPurchasePrice, 1_000_000_000n);
    assert.equal(pricing.functionCallPerByte.sendNotSir, 47683715n);
    assert.equal(pricing.actionReceipt.execution, 108059500000n);
  });

  it('burns the send fees at the gas price and buys the rest at max(gas price, min_gas_purchase_price)', () => {
    const bytes = 17n + 100n;
    const burnt = 108059500000n + 200000000000n + 47683715n * bytes;
    const bought = 100n * TGAS + 108059500000n + 780000000000n + 2235934n * bytes;
    assert.equal(callCost(pricing, call, 100_000_000n), burnt * 100_000_000n + bought * 1_000_000_000n);
    // 100 Tgas prepaid at 1e9 is 0.1 NEAR: the figure the agent's balance must cover per call in flight.
    const cost = callCost(pricing, call, 100_000_000n);
    assert.ok(cost > 10n ** 23n && cost < 10n ** 23n + 2n * 10n ** 21n);
    // Above min_gas_purchase_price, everything goes at the gas price.
    assert.equal(callCost(pricing, call, 2_000_000_000n), (burnt + bought) * 2_000_000_000n);
  });

  it('uses the sir fees when the agent calls itself, and adds the deposit', () => {
    const own = callCost(pricing, { ...call, receiverId: call.signerId, deposit: 7n }, 100_000_000n);
    const bytes = 17n + 100n;
    const burnt = 108059500000n + 200000000000n + 2235934n * bytes;
    const bought = 100n * TGAS + 108059500000n + 780000000000n + 2235934n * bytes;
    assert.equal(own, burnt * 100_000_000n + bought * 1_000_000_000n + 7n);
  });

  it('works on a chain without min_gas_purchase_price (the gas price alone)', () => {
    const old = callPricingOf({
      runtime_config: { ...PROTOCOL_CONFIG.runtime_config, min_gas_purchase_price: undefined },
    });
    assert.equal(old.minGasPurchasePrice, 0n);
  });
});

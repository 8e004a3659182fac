/**
 * RemoveGasRewards (protocol 87, nearcore 2.14: `burnt_gas_reward` 3/10 -> 0/1 in 87.yaml): before 87 the
 * contract account is paid 3/10 of the gas its code burns, at the block's gas price; from 87 it is paid
 * nothing and that gas stays burnt. The outcome's gas and tokens burnt do not change, only the contract's
 * balance (and the chunk's total burnt).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { wat } from '../vm/prepare/test-helpers.js';
import { runtimeParamsFrom } from './runtime-params.js';
import { NEAR, RuntimeHarness, testBlock } from './test-support/apply-receipt-harness.js';

// A method that burns some gas in Wasm instructions.
const BUSY = wat(`(module
  (func (export "spin") (local i32)
    (loop $l (local.set 0 (i32.add (local.get 0) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get 0) (i32.const 1000))))))`);

function callAt(version: number) {
  const h = new RuntimeHarness(runtimeParamsFrom(loadRuntimeConfig(version)), testBlock());
  h.addAccount('alice.near', 10n * NEAR);
  h.addAccount('bob.near', 10n * NEAR);
  assert.equal(
    h.applyAction('bob.near', { type: 'DeployContract', code: BUSY }, 'bob.near').failure,
    undefined,
  );
  const before = h.account('bob.near')!.amount;
  const exec = h.applyAction('bob.near', {
    type: 'FunctionCall',
    methodName: 'spin',
    args: new Uint8Array(),
    gas: 10n ** 13n,
    deposit: 0n,
  });
  assert.equal(exec.failure, undefined);
  return { exec, delta: h.account('bob.near')!.amount - before, gasPrice: h.block.gasPrice };
}

describe('RemoveGasRewards', () => {
  it('86: the contract earns 3/10 of the gas its code burnt, at the block gas price', () => {
    const { exec, delta, gasPrice } = callAt(86);
    const codeGas = exec.result.gasBurntForFunctionCall;
    assert.ok(codeGas > 0n);
    const reward = gasPrice * ((codeGas * 3n) / 10n);
    assert.equal(exec.contractReward, reward);
    assert.equal(delta, reward);
    assert.ok(delta > 0n);
  });

  it('87: the contract earns nothing; the outcome burns the same gas and tokens as at 86', () => {
    const at86 = callAt(86);
    const at87 = callAt(87);
    assert.equal(at87.exec.contractReward, 0n);
    assert.equal(at87.delta, 0n);
    assert.equal(at87.exec.result.gasBurnt, at86.exec.result.gasBurnt);
    assert.equal(at87.exec.tokensBurnt, at86.exec.tokensBurnt);
  });
});

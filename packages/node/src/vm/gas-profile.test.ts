import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { GasCounter } from './gas-counter.js';
import {
  ACTION_COST_INDEX,
  EXT_COST_INDEX,
  emptyGasProfile,
  gasProfileView,
  mergeGasProfile,
  ProfileRecorder,
  setWasmGas,
} from './gas-profile.js';
import { HostError } from './vm-errors.js';

const config = loadRuntimeConfig(86);

describe('gas profile', () => {
  it('books a host cost under the cost read from the table, an action fee under its ActionCosts name', () => {
    const recorder = new ProfileRecorder(config.fees);
    const costs = recorder.taggedCosts(config.wasm.extCosts);
    const gas = new GasCounter(10n ** 15n, 10n ** 15n, false, recorder);
    gas.payBase(costs.base);
    gas.payBase(costs.base);
    gas.payPer(costs.storage_write_key_byte, 3n);
    gas.deductAction(recorder.actionOf(config.fees.transfer), 5n, 7n);
    // A charge that did not read the table is not booked (it shows as Wasm instructions).
    gas.payBase(1000n);
    const profile = recorder.profile;
    assert.equal(profile.ext[EXT_COST_INDEX.base], 2n * config.wasm.extCosts.base);
    assert.equal(
      profile.ext[EXT_COST_INDEX.storage_write_key_byte],
      3n * config.wasm.extCosts.storage_write_key_byte,
    );
    assert.equal(profile.actions[ACTION_COST_INDEX.transfer], 5n);
    setWasmGas(profile, gas.burnt);
    assert.equal(profile.wasm, 1000n);
  });

  it('books a charge in full even when it runs out of gas, as nearcore does', () => {
    const recorder = new ProfileRecorder(config.fees);
    const costs = recorder.taggedCosts(config.wasm.extCosts);
    const gas = new GasCounter(100n, 100n, false, recorder);
    assert.throws(() => gas.payBase(costs.storage_write_base), HostError);
    assert.equal(
      recorder.profile.ext[EXT_COST_INDEX.storage_write_base],
      config.wasm.extCosts.storage_write_base,
    );
    assert.equal(gas.burnt, 100n);
    setWasmGas(recorder.profile, gas.burnt);
    assert.equal(recorder.profile.wasm, 0n, 'never below zero');
  });

  it('renders nearcore CostGasUsed entries: non-zero only, capitals, sorted by category then name', () => {
    const profile = emptyGasProfile();
    profile.ext[EXT_COST_INDEX.write_register_base] = 3n;
    profile.ext[EXT_COST_INDEX.base] = 2n;
    profile.actions[ACTION_COST_INDEX.new_action_receipt] = 5n;
    profile.actions[ACTION_COST_INDEX.function_call_byte] = 4n;
    const other = emptyGasProfile();
    other.ext[EXT_COST_INDEX.base] = 1n;
    other.wasm = 7n;
    mergeGasProfile(profile, other);
    assert.deepEqual(gasProfileView(profile), [
      { cost_category: 'ACTION_COST', cost: 'FUNCTION_CALL_BYTE', gas_used: '4' },
      { cost_category: 'ACTION_COST', cost: 'NEW_ACTION_RECEIPT', gas_used: '5' },
      { cost_category: 'WASM_HOST_COST', cost: 'BASE', gas_used: '3' },
      { cost_category: 'WASM_HOST_COST', cost: 'WASM_INSTRUCTION', gas_used: '7' },
      { cost_category: 'WASM_HOST_COST', cost: 'WRITE_REGISTER_BASE', gas_used: '3' },
    ]);
    assert.deepEqual(gasProfileView(emptyGasProfile()), []);
    assert.deepEqual(gasProfileView(undefined), []);
  });
});

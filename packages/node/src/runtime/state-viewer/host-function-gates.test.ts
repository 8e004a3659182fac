import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256 } from '@shadebox/primitives';
import { loadRuntimeConfig } from '../../config/runtime-config.js';
import { contractCodeKey } from '../../state/state-keys.js';
import { StateUpdate } from '../../state/state-update.js';
import { hostFunctionEnabled } from '../../vm/host-function-gates.js';
import { wat } from '../../vm/prepare/test-helpers.js';
import { runtimeParamsFrom } from '../runtime-params.js';
import { callFunction, type ViewApplyState } from './call-function.js';

// A view method that imports `chain_id` (NEP-638), which nearcore defines from protocol 85 on.
const CHAIN_ID = `(module
  (import "env" "chain_id" (func $chain_id (param i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (memory 1)
  (func (export "id") (call $chain_id (i64.const 0)) (drop (call $register_len (i64.const 0)))))`;

const ID = 'gates.test.near';

function viewAt(protocolVersion: number, code: Uint8Array) {
  const state = new StateUpdate(undefined, -1);
  state.set(contractCodeKey(ID), code);
  const view: ViewApplyState = {
    state,
    params: runtimeParamsFrom(loadRuntimeConfig(protocolVersion)),
    blockHeight: 10n,
    blockTimestamp: 1_700_000_000_000_000_000n,
    epochHeight: 1n,
    randomSeed: new Uint8Array(32),
    validatorStakes: new Map(),
  };
  const account = { amount: 10n ** 24n, locked: 0n, codeHash: sha256(code), storageUsage: 1000n };
  return callFunction(view, ID, account, 'id', new Uint8Array(0));
}

describe('host functions a protocol version leaves out', () => {
  it('are not defined while their switch is off (a LinkError as for an unknown name)', async () => {
    const code = await wat(CHAIN_ID);
    for (const version of [83, 84]) {
      const out = viewAt(version, code);
      assert.equal(
        'error' in out ? out.error : undefined,
        'wasm execution failed with error: LinkError { msg: "unknown import: `env::chain_id` has not been defined" }',
      );
    }
    for (const version of [85, 86]) assert.ok('result' in viewAt(version, code), `${version}`);
  });

  it('follow the switches of each version', () => {
    const at = (v: number) => loadRuntimeConfig(v).wasm;
    for (const name of [
      'promise_batch_action_transfer_to_gas_key',
      'promise_yield_create_with_id',
      'p256_verify',
      'chain_id',
    ]) {
      assert.equal(hostFunctionEnabled(name, at(84)), false, name);
      assert.equal(hostFunctionEnabled(name, at(85)), true, name);
    }
    for (const v of [83, 86]) {
      assert.equal(hostFunctionEnabled('promise_batch_action_use_global_contract', at(v)), true);
      // sha3_256 is off at every version nearcore 2.13 runs.
      assert.equal(hostFunctionEnabled('sha3_256', at(v)), false);
      assert.equal(hostFunctionEnabled('storage_write', at(v)), true);
    }
  });
});

/**
 * ReceiptPromiseInputSizeLimit (protocol 87, nearcore 2.14 `apply_action_receipt`): the promise inputs of one
 * receipt, measured as the borsh `ReceivedData` of each (1 byte for a failed input, 5 + length for data), may
 * total `max_receipt_total_input_size` (4_194_944: 4 MiB of returned data plus 5 bytes for each of the 128
 * possible inputs). Over it, the inputs are dropped and the receipt fails with `TotalPromiseInputSizeExceeded`
 * before any action runs. At 86 there is no such limit.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { getReceivedData, setReceivedData } from '../state/receipt-state.js';
import { runtimeParamsFrom } from './runtime-params.js';
import { actionReceipt, NEAR, RuntimeHarness, testBlock } from './test-support/apply-receipt-harness.js';

const MIB = 1024 * 1024;

/** bob.near receives a transfer whose receipt waited for `inputs` (null: a failed promise). */
function applyWithInputs(version: number, inputs: (number | null)[]) {
  const h = new RuntimeHarness(runtimeParamsFrom(loadRuntimeConfig(version)), testBlock());
  h.addAccount('alice.near', 10n * NEAR);
  h.addAccount('bob.near', 10n * NEAR);
  const dataIds = inputs.map((_, i) => new Uint8Array(32).fill(10 + i));
  for (const [i, length] of inputs.entries()) {
    setReceivedData(h.state, 'bob.near', dataIds[i], length === null ? null : new Uint8Array(length));
  }
  h.state.commit({ type: 'initial_state' });
  const receipt = actionReceipt({ receiverId: 'bob.near', actions: [{ type: 'Transfer', deposit: NEAR }] });
  receipt.receipt.inputDataIds = dataIds;
  const before = h.account('bob.near')!.amount;
  const exec = h.apply(receipt);
  const left = dataIds.filter((id) => getReceivedData(h.state, 'bob.near', id) !== undefined).length;
  return { exec, gained: h.account('bob.near')!.amount - before, left };
}

describe('ReceiptPromiseInputSizeLimit', () => {
  it('87: two 2.5 MB inputs (5_000_010 bytes) fail the receipt before its actions, inputs dropped', () => {
    const { exec, gained, left } = applyWithInputs(87, [2_500_000, 2_500_000]);
    assert.deepEqual(exec.failure?.toJSON(), {
      ActionError: {
        index: null,
        kind: { TotalPromiseInputSizeExceeded: { size: 5_000_010, limit: 4_194_944 } },
      },
    });
    assert.equal(gained, 0n);
    assert.equal(left, 0);
    // The transfer's deposit goes back to the signer.
    assert.ok(exec.result.newReceipts.length >= 1);
  });

  it('86: the same receipt runs its transfer', () => {
    const { exec, gained, left } = applyWithInputs(86, [2_500_000, 2_500_000]);
    assert.equal(exec.failure, undefined);
    assert.equal(gained, NEAR);
    assert.equal(left, 0);
  });

  it('87: 4 MiB of data always fits, one input or 128; one byte more does not', () => {
    assert.equal(applyWithInputs(87, [4 * MIB]).exec.failure, undefined);
    const split = Array.from({ length: 128 }, () => (4 * MIB) / 128);
    assert.equal(applyWithInputs(87, split).exec.failure, undefined);
    // 127 × 32_768 + 32_769 bytes of data, and 128 × 5 of framing: 4_194_945.
    const over = [...split.slice(1), (4 * MIB) / 128 + 1];
    assert.deepEqual(applyWithInputs(87, over).exec.failure?.kind, {
      TotalPromiseInputSizeExceeded: { size: 4_194_945, limit: 4_194_944 },
    });
    // A failed input counts 1 byte (the option's tag).
    assert.deepEqual(applyWithInputs(87, [4 * MIB + 635, null]).exec.failure?.kind, {
      TotalPromiseInputSizeExceeded: { size: 4_194_945, limit: 4_194_944 },
    });
  });
});

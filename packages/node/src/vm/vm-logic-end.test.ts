/**
 * `VMLogic.end`: the VMLogic reused by every call lets go of the call's state once the call is over, so a kept
 * instance does not hold the last block's StateUpdate (through `ext`) until the next contract call.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildVMLogic } from './test-support/vm-logic-builder.js';

describe('VMLogic.end', () => {
  it("drops the call's context, state access, registers and result, and a new call starts afresh", () => {
    const logic = buildVMLogic();
    const vm = logic.vm;
    const ext = vm.ext;
    const ctx = vm.ctx;
    const text = logic.memWrite('hi');
    logic.call('log_utf8', text.len, text.ptr);
    assert.deepEqual(vm.logs, ['hi']);
    vm.end();
    assert.equal(vm.ext, undefined);
    assert.equal(vm.ctx, undefined);
    assert.equal(vm.registers, undefined);
    assert.deepEqual(vm.logs, []);
    assert.deepEqual(vm.returnData, { kind: 'None' });
    vm.begin(ctx, ext, new Uint8Array(32));
    assert.equal(vm.ext, ext);
    assert.equal(vm.ctx, ctx);
    assert.ok(vm.registers);
  });
});

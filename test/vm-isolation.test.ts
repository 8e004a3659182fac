/**
 * Every call starts from a fresh instance's state, although the node reuses instances and memories between
 * calls: globals at their initial values, data segments as written, everything else zero, the memory at its
 * initial 1024 pages — after calls that changed all of these, trapped halfway, or grew the memory.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ONE_NEAR as NEAR } from '@shadebox/primitives';
import type { Account } from 'near-api-js';
import { newKey, startTestNode, type TestNode } from './support/test-node.js';
import { callOutcome, callRaw, view, wat } from './vm-wat-helpers.js';

// `observe` returns [global, memory[100..103), memory[5000], memory.size as u16 LE] and then dirties all of
// them; `trap` dirties them and traps; `grow` grows the memory by one page.
const CONTRACT = `(module
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (memory 1)
  (global $g (mut i32) (i32.const 7))
  (data (i32.const 100) "abc")
  (func $dirty
    (global.set $g (i32.add (global.get $g) (i32.const 1)))
    (i32.store8 (i32.const 100) (i32.const 88))
    (i32.store8 (i32.const 5000) (i32.const 99))
    (memory.fill (i32.const 60000) (i32.const 1) (i32.const 70000)))
  (func (export "observe")
    (i32.store8 (i32.const 0) (global.get $g))
    (memory.copy (i32.const 1) (i32.const 100) (i32.const 3))
    (i32.store8 (i32.const 4) (i32.load8_u (i32.const 5000)))
    (i32.store16 (i32.const 5) (memory.size))
    (i32.store8 (i32.const 7) (i32.load8_u (i32.const 65000)))
    (call $value_return (i64.const 8) (i64.const 0))
    (call $dirty))
  (func (export "trap") (call $dirty) unreachable)
  (func (export "grow") (drop (memory.grow (i32.const 1))) (call $dirty)))`;

const FRESH = [7, 97, 98, 99, 0, 0, 4, 0];

describe('each call sees a fresh instance', () => {
  let t: TestNode;
  let contract: Account;

  before(async () => {
    t = await startTestNode();
    const key = newKey();
    await t.root.createSubAccount({
      accountOrPrefix: 'iso',
      publicKey: key.getPublicKey(),
      nearToTransfer: 10n * NEAR,
    });
    contract = t.account(`iso.${t.rootId}`, key);
    await contract.deployContract(await wat(CONTRACT));
  });
  after(async () => {
    await t?.stop();
  });

  const viewed = async () => (await view(t.url, contract.accountId, 'observe')).result;
  const called = async () => [
    ...Buffer.from(
      callOutcome(await callRaw(contract, contract.accountId, 'observe')).status.SuccessValue,
      'base64',
    ),
  ];

  it('repeated view calls and transactions', async () => {
    for (let i = 0; i < 3; i++) assert.deepEqual(await viewed(), FRESH);
    for (let i = 0; i < 2; i++) assert.deepEqual(await called(), FRESH);
    assert.deepEqual(await viewed(), FRESH);
  });

  it('after a call that trapped halfway', async () => {
    const r = await callRaw(contract, contract.accountId, 'trap');
    assert.ok(callOutcome(r).status.Failure);
    assert.match((await view(t.url, contract.accountId, 'trap')).error, /WasmTrap\(Unreachable\)/);
    assert.deepEqual(await viewed(), FRESH);
    assert.deepEqual(await called(), FRESH);
  });

  it('after a call that grew the memory', async () => {
    assert.deepEqual(callOutcome(await callRaw(contract, contract.accountId, 'grow')).status, {
      SuccessValue: '',
    });
    assert.deepEqual((await view(t.url, contract.accountId, 'grow')).result, []);
    assert.deepEqual(await viewed(), FRESH);
    assert.deepEqual(await called(), FRESH);
  });
});

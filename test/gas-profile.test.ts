/**
 * End to end: the gas profile of receipt outcomes (nearcore `ExecutionMetadataView`) through `tx` and
 * `EXPERIMENTAL_tx_status`, on a real node running nearcore's status_message contract and a WAT contract that
 * sends a transfer. At protocol 85 and later the metadata is version 4 with the receiver's contract per action;
 * before, version 3.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { base58Encode, sha256, TGAS } from '@shadebox/primitives';
import { type Account, actions } from 'near-api-js';
import type { Json } from './support/raw-rpc.js';
import { rpc } from './support/rpc-calls.js';
import { newKey, startTestNode, type TestNode } from './support/test-node.js';
import { callOutcome, callRaw, wat } from './vm-wat-helpers.js';

const STATUS_MESSAGE = readFileSync(
  new URL(
    '../../shared/corpus/nearcore-vendored/runtime__runtime-params-estimator__res__status_message.wasm',
    import.meta.url,
  ),
);

// Sends 1 yoctoNEAR to `test.near` from a promise: one new receipt and one transfer, paid by the call.
const SENDER = `(module
  (import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
  (import "env" "promise_batch_action_transfer" (func $transfer (param i64 i64)))
  (memory 1)
  (data (i32.const 0) "test.near")
  (data (i32.const 16) "\\01")
  (func (export "send") (call $transfer (call $create (i64.const 9) (i64.const 0)) (i64.const 16))))`;

const sum = (profile: Json[]) => profile.reduce((total: bigint, e: Json) => total + BigInt(e.gas_used), 0n);

function checkProfileShape(profile: Json[]) {
  assert.ok(Array.isArray(profile) && profile.length > 0);
  for (const entry of profile) {
    // RPC results have sorted keys, as nearcore's serde_json::Value writes them.
    assert.deepEqual(Object.keys(entry), ['cost', 'cost_category', 'gas_used']);
    assert.ok(['ACTION_COST', 'WASM_HOST_COST'].includes(entry.cost_category));
    assert.match(entry.gas_used, /^[1-9]\d*$/, 'zero entries are left out; gas as a decimal string');
  }
  const keys = profile.map((e) => `${e.cost_category} ${e.cost}`);
  assert.deepEqual(keys, [...keys].sort(), 'sorted by category, then cost');
}

async function deploy(t: TestNode, name: string, code: Uint8Array): Promise<Account> {
  const key = newKey();
  const id = `${name}.${t.rootId}`;
  await t.root.signAndSendTransaction({
    receiverId: id,
    actions: [
      actions.createAccount(),
      actions.transfer(10n ** 25n),
      actions.addFullAccessKey(key.getPublicKey()),
      actions.deployContract(code),
    ],
    waitUntil: 'FINAL',
  });
  return t.account(id, key.toString() as `ed25519:${string}`);
}

describe('gas_profile in receipt outcomes (protocol 86)', () => {
  let t: TestNode;
  let status: Account;
  let sender: Account;

  before(async () => {
    t = await startTestNode();
    status = await deploy(t, 'status', STATUS_MESSAGE);
    sender = await deploy(t, 'sender', await wat(SENDER));
  });
  after(() => t.stop());

  it('breaks a contract call down by host cost, with contract loading and Wasm instructions', async () => {
    const args = new TextEncoder().encode(JSON.stringify({ message: 'hello' }));
    const result = await callRaw(status, status.accountId, 'set_status', args, 30n * TGAS);
    const outcome = callOutcome(result);
    assert.ok('SuccessValue' in outcome.status, JSON.stringify(outcome.status));
    const metadata = outcome.metadata;
    assert.deepEqual(Object.keys(metadata).sort(), ['contracts', 'gas_profile', 'version']);
    assert.equal(metadata.version, 4);
    assert.deepEqual(metadata.contracts, [{ local: base58Encode(sha256(STATUS_MESSAGE)) }]);
    const profile: Json[] = metadata.gas_profile;
    checkProfileShape(profile);
    const by = Object.fromEntries(profile.map((e) => [e.cost, BigInt(e.gas_used)]));
    const ext = t.cfg.wasm.extCosts;
    assert.equal(by.CONTRACT_LOADING_BASE, ext.contract_loading_base);
    assert.equal(by.CONTRACT_LOADING_BYTES, ext.contract_loading_bytes * BigInt(STATUS_MESSAGE.length));
    assert.equal(by.STORAGE_WRITE_BASE, ext.storage_write_base);
    assert.equal(by.BASE % ext.base, 0n);
    assert.ok(by.WASM_INSTRUCTION > 0n);
    assert.ok(
      profile.every((e) => e.cost_category === 'WASM_HOST_COST'),
      'no promise: no action cost',
    );
    // The profile is the contract's gas: the receipt burns the receipt and function-call fees on top.
    const fees = t.cfg.fees;
    const callBytes = BigInt('set_status'.length + args.length);
    const feesBurnt =
      fees.new_action_receipt.execution +
      fees.function_call_base.execution +
      fees.function_call_byte.execution * callBytes;
    assert.equal(sum(profile), BigInt(outcome.gas_burnt) - feesBurnt);

    // The same in `tx`, and the transaction outcome has no profile (version 1).
    const hash = result.transaction_outcome.id;
    const plain = await rpc(t.url, 'tx', {
      tx_hash: hash,
      sender_account_id: status.accountId,
      wait_until: 'FINAL',
    });
    assert.deepEqual(callOutcome(plain).metadata, metadata);
    assert.deepEqual(result.transaction_outcome.outcome.metadata, { version: 1, gas_profile: null });
  });

  it('shows the send fees of the receipts a call creates as action costs', async () => {
    const result = await callRaw(sender, sender.accountId, 'send');
    const outcome = callOutcome(result);
    assert.ok('SuccessValue' in outcome.status, JSON.stringify(outcome.status));
    const profile: Json[] = outcome.metadata.gas_profile;
    checkProfileShape(profile);
    const actionCosts = profile.filter((e) => e.cost_category === 'ACTION_COST');
    const fees = t.cfg.fees;
    // The transfer goes to another account: the not-sir send fees, booked as nearcore books them.
    assert.deepEqual(actionCosts, [
      {
        cost_category: 'ACTION_COST',
        cost: 'NEW_ACTION_RECEIPT',
        gas_used: fees.new_action_receipt.sendNotSir.toString(),
      },
      { cost_category: 'ACTION_COST', cost: 'TRANSFER', gas_used: fees.transfer.sendNotSir.toString() },
    ]);
    const execFees =
      fees.new_action_receipt.execution +
      fees.function_call_base.execution +
      fees.function_call_byte.execution * 4n;
    assert.equal(sum(profile), BigInt(outcome.gas_burnt) - execFees);
    // The transfer's own receipt runs no contract: an empty profile, and test.near has no contract.
    const transferId = outcome.receipt_ids[0];
    const transfer = result.receipts_outcome.find((o: Json) => o.id === transferId).outcome;
    assert.deepEqual(transfer.metadata, { version: 4, gas_profile: [], contracts: [null] });
  });

  it('has no profile for a call that fails before loading the contract, and an empty one for a transfer', async () => {
    const result = await callRaw(status, status.accountId, 'no_such_method');
    const outcome = callOutcome(result);
    assert.ok(outcome.status.Failure);
    assert.deepEqual(outcome.metadata.gas_profile, []);
    assert.deepEqual(outcome.metadata.contracts, [{ local: base58Encode(sha256(STATUS_MESSAGE)) }]);
  });
});

describe('gas_profile before protocol 85', () => {
  let t: TestNode;
  before(async () => {
    t = await startTestNode({ protocolVersion: 84 });
  });
  after(() => t.stop());

  it('is metadata version 3, without contracts', async () => {
    const status = await rpc(t.url, 'status', []);
    assert.equal(status.protocol_version, 84);
    const key = newKey();
    const id = `v3.${t.rootId}`;
    const result = await t.root.signAndSendTransaction({
      receiverId: id,
      actions: [
        actions.createAccount(),
        actions.transfer(10n ** 24n),
        actions.addFullAccessKey(key.getPublicKey()),
      ],
      waitUntil: 'FINAL',
    });
    const receipt = result.receipts_outcome[0].outcome as unknown as Json;
    assert.deepEqual(receipt.metadata, { version: 3, gas_profile: [] });
    const config = await rpc(t.url, 'EXPERIMENTAL_protocol_config', { finality: 'final' });
    assert.equal(config.protocol_version, 84);
    assert.equal(config.runtime_config.min_gas_purchase_price, '0');
  });
});

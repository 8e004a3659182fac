/**
 * End to end: real third-party AssemblyScript contracts from npm (near-hello, near-sdk-simulator's release
 * builds) deployed with near-api-js on a real node and called through transactions and `query`
 * call_function: return values, logs, storage usage, failures with nearcore's exact messages, promise
 * DAGs across two accounts (callbacks seeing the results of their dependencies) and the gas bookkeeping of
 * every outcome, with the chain-wide conservation check at the end.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ONE_NEAR as NEAR, TGAS } from '@shadebox/primitives';
import { type Account, actions } from 'near-api-js';
import { checkConservation } from './support/conservation.js';
import { type Json, rpcRaw } from './support/raw-rpc.js';
import { receiptOutcome } from './support/receipts.js';
import { applyGasPrice, blockHeight, rpc, viewAccount } from './support/rpc-calls.js';
import { newKey, startTestNode, type TestNode } from './support/test-node.js';
import { base64Of, refOf, type TxRef, txStatus } from './support/transactions.js';

const HELLO = readFileSync('node_modules/near-hello/dist/main.wasm');
const sim = (name: string) => readFileSync(`node_modules/near-sdk-simulator/build/release/${name}.wasm`);

const b64json = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
const fcError = (e: unknown) => ({
  Failure: { ActionError: { index: 0, kind: { FunctionCallError: e } } },
});
const panicked = (msg: string) => fcError({ ExecutionError: `Smart contract panicked: ${msg}` });
const TEN_TGAS = (10n * TGAS).toString();

describe('real AssemblyScript contracts (near-hello, near-sdk-simulator)', () => {
  let t: TestNode;
  const txs: TxRef[] = [];
  const accounts = new Set<string>();
  let h1: Account;
  let h2: Account;
  let alice: Account;
  let sentences: Account;
  let words: Account;
  let avl: Account;
  let single: Account;
  let exportAs: Account;

  /** Records a near-api-js result and returns its FINAL EXPERIMENTAL_tx_status. */
  async function record(result: Json): Promise<Json> {
    const ref = refOf(result);
    txs.push(ref);
    return txStatus(t.url, ref, 'FINAL');
  }

  /** A new sub-account of the root with `amount`, holding `code` when given. */
  async function deployed(prefix: string, code?: Buffer, amount = 50n * NEAR): Promise<Account> {
    const key = newKey();
    await record(
      await t.root.createSubAccount({
        accountOrPrefix: prefix,
        publicKey: key.getPublicKey(),
        nearToTransfer: amount,
      }),
    );
    const account = t.account(`${prefix}.${t.rootId}`, key);
    accounts.add(account.accountId);
    if (code) {
      const status = await record(await account.deployContract(code));
      assert.deepEqual(status.status, { SuccessValue: '' });
    }
    return account;
  }

  /**
   * One FunctionCall transaction sent with `send_tx` (a failing one is an answer, not an exception), its
   * gas bookkeeping checked; returns the FINAL EXPERIMENTAL_tx_status.
   */
  async function call(
    signer: Account,
    contractId: string,
    method: string,
    args: unknown = {},
    options: { gas?: bigint; deposit?: bigint } = {},
  ): Promise<Json> {
    const raw = Buffer.isBuffer(args) ? args : Buffer.from(JSON.stringify(args));
    const signed = await signer.createSignedTransaction({
      receiverId: contractId,
      actions: [actions.functionCall(method, raw, options.gas ?? 100n * TGAS, options.deposit ?? 0n)],
    });
    const result = await rpc(t.url, 'send_tx', { signed_tx_base64: base64Of(signed), wait_until: 'FINAL' });
    const status = await record(result);
    await checkBurnt(status);
    return status;
  }

  /** tokens_burnt = gas_burnt × the gas price its block was applied with (the purchase price if lower). */
  async function checkBurnt(status: Json): Promise<void> {
    const tx = status.transaction_outcome;
    const txPrice = await applyGasPrice(t.url, await blockHeight(t.url, tx.block_hash));
    assert.equal(BigInt(tx.outcome.tokens_burnt), BigInt(tx.outcome.gas_burnt) * txPrice, 'tx tokens_burnt');
    for (const o of status.receipts_outcome) {
      const price = await applyGasPrice(t.url, await blockHeight(t.url, o.block_hash));
      // A local receipt (signer = receiver) is not stored: it is in neither `receipts` nor EXPERIMENTAL_receipt,
      // and was bought at the transaction's price.
      const view =
        status.receipts?.find((r: Json) => r.receipt_id === o.id) ??
        (await rpcRaw(t.url, 'EXPERIMENTAL_receipt', { receipt_id: o.id })).result ??
        (o.id === tx.outcome.receipt_ids[0]
          ? {
              predecessor_id: tx.outcome.executor_id,
              receipt: { Action: { gas_price: t.fees.purchasePrice(txPrice) } },
            }
          : undefined);
      assert.ok(view, `receipt ${o.id} in EXPERIMENTAL_tx_status`);
      const purchase = BigInt(view.receipt.Action.gas_price);
      const burnPrice = view.predecessor_id === 'system' || purchase > price ? price : purchase;
      assert.equal(
        BigInt(o.outcome.tokens_burnt),
        BigInt(o.outcome.gas_burnt) * burnPrice,
        `receipt ${o.id}: tokens_burnt = gas_burnt × price`,
      );
    }
  }

  /** `query` call_function: the returned bytes as a string, the logs, or the error string. */
  async function view(
    accountId: string,
    method: string,
    args: unknown = {},
  ): Promise<{ value?: string; logs: string[]; error?: string }> {
    const { result, error } = await rpcRaw(t.url, 'query', {
      request_type: 'call_function',
      finality: 'final',
      account_id: accountId,
      method_name: method,
      args_base64: b64json(args),
    });
    assert.equal(error, undefined, JSON.stringify(error));
    if (typeof result.error === 'string') return { error: result.error, logs: result.logs };
    return { value: Buffer.from(result.result).toString(), logs: result.logs };
  }

  /** The first receipt's outcome (the one the transaction made). */
  const first = (status: Json) => receiptOutcome(status, status.transaction_outcome.outcome.receipt_ids[0]);
  const successValue = (o: Json) => Buffer.from(o.outcome.status.SuccessValue, 'base64').toString();
  const storageUsage = async (id: string) => (await viewAccount(t.url, id))!.storageUsage;

  /** The promise args of near-hello's callPromise / callPromiseAll (u64 fields as JSON strings). */
  const promiseArgs = (receiver: string, methodName: string, callback = 'callbackWithName') => ({
    args: {
      receiver,
      methodName,
      args: {},
      gas: TEN_TGAS,
      balance: '0',
      callback,
      callbackArgs: {},
      callbackBalance: '0',
      callbackGas: TEN_TGAS,
    },
  });

  before(async () => {
    t = await startTestNode();
    accounts.add(t.rootId);
    h1 = await deployed('h1', HELLO);
    h2 = await deployed('h2', HELLO);
    alice = await deployed('alice');
    sentences = await deployed('sentences', sim('sentences'));
    avl = await deployed('avl', sim('avlTreeContract'));
    single = await deployed('single', sim('singleton'));
    exportAs = await deployed('exportas', sim('exportAs'));

    // sentences calls the hard-coded `words.examples`: `examples` is a short top-level name only the
    // registrar may create, so it is patched in with nothing (total supply unchanged), then funded.
    const examplesKey = newKey();
    await rpc(t.url, 'sandbox_patch_state', {
      records: [
        { Account: { account_id: 'examples', account: { amount: '0', locked: '0' } } },
        {
          AccessKey: {
            account_id: 'examples',
            public_key: examplesKey.getPublicKey().toString(),
            access_key: { nonce: 0, permission: 'FullAccess' },
          },
        },
      ],
    });
    accounts.add('examples');
    await record(await t.root.transfer({ receiverId: 'examples', amount: 20n * NEAR }));
    const examples = t.account('examples', examplesKey);
    const wordsKey = newKey();
    await record(
      await examples.createSubAccount({
        accountOrPrefix: 'words',
        publicKey: wordsKey.getPublicKey(),
        nearToTransfer: 10n * NEAR,
      }),
    );
    words = t.account('words.examples', wordsKey);
    accounts.add(words.accountId);
    await record(await words.deployContract(sim('words')));
  });
  after(async () => {
    await t?.stop();
  });

  // ---- near-hello --------------------------------------------------------------------------------------

  it('hello: hello(name) by transaction and by view', async () => {
    const status = await call(alice, h1.accountId, 'hello', { name: 'bob' });
    assert.deepEqual(status.status, { SuccessValue: b64json('hello bob') });
    assert.equal(first(status).outcome.executor_id, h1.accountId);
    assert.deepEqual(await view(h1.accountId, 'hello', { name: 'alice' }), {
      value: '"hello alice"',
      logs: [],
    });
  });

  it('hello: setValue / getValue, storage usage grows by the record (40 + key + value)', async () => {
    const before = await storageUsage(h1.accountId);
    const status = await call(h1, h1.accountId, 'setValue', { value: 'hi there' });
    assert.deepEqual(status.status, { SuccessValue: b64json('hi there') });
    assert.equal(await storageUsage(h1.accountId), before + 40 + 'name'.length + 'hi there'.length);
    assert.deepEqual(await view(h1.accountId, 'getValue'), { value: '"hi there"', logs: [] });
    // Overwriting with a value of the same length changes nothing.
    await call(h1, h1.accountId, 'setValue', { value: 'HI THERE' });
    assert.equal(await storageUsage(h1.accountId), before + 52);
    assert.deepEqual(await view(h1.accountId, 'getValue'), { value: '"HI THERE"', logs: [] });
  });

  it('hello: setKeyValue / getValueByKey; a missing key aborts with a null message (BadUTF16)', async () => {
    const before = await storageUsage(h1.accountId);
    const status = await call(alice, h1.accountId, 'setKeyValue', { key: 'k', value: 'v' });
    assert.deepEqual(status.status, { SuccessValue: '' });
    assert.equal(await storageUsage(h1.accountId), before + 42);
    assert.deepEqual(await view(h1.accountId, 'getValueByKey', { key: 'k' }), { value: '"v"', logs: [] });
    assert.deepEqual(await view(h1.accountId, 'getValueByKey', { key: 'missing' }), {
      error: 'wasm execution failed with error: HostError(BadUTF16)',
      logs: [],
    });
  });

  it('hello: generateLogs writes and logs; as a view it is ProhibitedInView', async () => {
    const before = await storageUsage(h1.accountId);
    const status = await call(alice, h1.accountId, 'generateLogs');
    assert.deepEqual(status.status, { SuccessValue: '' });
    assert.deepEqual(first(status).outcome.logs, ['log1', 'log2']);
    assert.equal(await storageUsage(h1.accountId), before + 40 + 'item'.length + 'value'.length);
    assert.deepEqual(await view(h1.accountId, 'generateLogs'), {
      error: 'wasm execution failed with error: HostError(ProhibitedInView { method_name: "storage_write" })',
      logs: [],
    });
  });

  it('hello: returnHiWithLogs returns "Hi" with two logs (transaction and view)', async () => {
    const status = await call(alice, h1.accountId, 'returnHiWithLogs');
    assert.deepEqual(status.status, { SuccessValue: b64json('Hi') });
    assert.deepEqual(first(status).outcome.logs, ['loooog1', 'loooog2']);
    assert.deepEqual(await view(h1.accountId, 'returnHiWithLogs'), {
      value: '"Hi"',
      logs: ['loooog1', 'loooog2'],
    });
  });

  it('hello: triggerAssert fails with the AssemblyScript abort message and an ABORT log', async () => {
    const msg = 'expected to fail, filename: "assembly/index.ts" line: 77 col: 2';
    const status = await call(alice, h1.accountId, 'triggerAssert');
    assert.deepEqual(status.status, panicked(msg));
    const receipt = first(status);
    assert.deepEqual(receipt.outcome.status, panicked(msg));
    assert.deepEqual(receipt.outcome.logs, ['log before assert', `ABORT: ${msg}`]);
    const v = await view(h1.accountId, 'triggerAssert');
    assert.equal(
      v.error,
      `wasm execution failed with error: HostError(GuestPanic { panic_msg: ${JSON.stringify(msg)} })`,
    );
  });

  it('hello: testSetRemove leaves storage as it was', async () => {
    const before = await storageUsage(h1.accountId);
    const status = await call(alice, h1.accountId, 'testSetRemove', { value: 'some value' });
    assert.deepEqual(status.status, { SuccessValue: '' });
    assert.equal(await storageUsage(h1.accountId), before);
  });

  it('hello: insertStrings / deleteStrings add and remove 10 records', async () => {
    const before = await storageUsage(h1.accountId);
    let status = await call(alice, h1.accountId, 'insertStrings', { from: 0, to: 10 });
    assert.deepEqual(status.status, { SuccessValue: '' });
    // Keys "a"×i + "b" for i in 0..9, values "x": Σ (40 + i + 1 + 1).
    assert.equal(await storageUsage(h1.accountId), before + 400 + 55 + 10);
    status = await call(alice, h1.accountId, 'deleteStrings', { from: 0, to: 10 });
    assert.deepEqual(status.status, { SuccessValue: '' });
    assert.equal(await storageUsage(h1.accountId), before);
  });

  it('hello: limited_storage stops at the limit; benchmark_storage; benchmark_sum_n', async () => {
    const before = await storageUsage(h2.accountId);
    // Writes "1"→"1", "2"→"2" (42 bytes each) while usage ≤ max; "3" crosses it and is deleted again.
    let status = await call(alice, h2.accountId, 'limited_storage', { max_storage: String(before + 100) });
    assert.deepEqual(status.status, { SuccessValue: b64json('3') });
    assert.equal(await storageUsage(h2.accountId), before + 84);
    // u64 arguments are JSON strings: a number is rejected by the bindgen.
    status = await call(alice, h2.accountId, 'limited_storage', { max_storage: 100 });
    assert.deepEqual(
      status.status,
      panicked(
        'Value with Key: max_storage with type u64 is an 64-bit integer and is expected to be encoded as a string, filename: "node_modules/near-sdk-as/assembly/bindgen.ts" line: 210 col: 6',
      ),
    );

    status = await call(alice, h2.accountId, 'benchmark_storage', { n: 10 });
    assert.deepEqual(status.status, { SuccessValue: b64json('45') });
    // "0".."9": "1" and "2" were there already.
    assert.equal(await storageUsage(h2.accountId), before + 84 + 8 * 42);

    assert.deepEqual(await view(h2.accountId, 'benchmark_sum_n', { n: 100 }), { value: '"4950"', logs: [] });
    status = await call(alice, h2.accountId, 'benchmark_sum_n', { n: 1000 });
    assert.deepEqual(status.status, { SuccessValue: b64json('499500') });
  });

  it('hello: recurse returns n; too deep a recursion exhausts the stack (MemoryAccessViolation)', async () => {
    assert.deepEqual(await view(h1.accountId, 'recurse', { n: 100 }), { value: '100', logs: [] });
    let status = await call(alice, h1.accountId, 'recurse', { n: 1000 });
    assert.deepEqual(status.status, { SuccessValue: Buffer.from('1000').toString('base64') });
    status = await call(alice, h1.accountId, 'recurse', { n: 100_000 }, { gas: 300n * TGAS });
    assert.deepEqual(status.status, fcError({ ExecutionError: 'Accessed memory outside the bounds.' }));
    assert.deepEqual(await view(h1.accountId, 'recurse', { n: 100_000 }), {
      error: 'wasm execution failed with error: HostError(MemoryAccessViolation)',
      logs: [],
    });
  });

  it('hello: crossContractFailure panics; crossContract needs 200 Tgas for its two promises', async () => {
    let status = await call(alice, h1.accountId, 'crossContractFailure');
    assert.deepEqual(status.status, panicked('explicit guest panic'));
    assert.deepEqual(first(status).outcome.logs, ['log before planned panic']);

    // 100 Tgas prepaid cannot attach 100 Tgas to the first promise: GasExceeded, nothing created.
    status = await call(alice, h1.accountId, 'crossContract', {}, { gas: 100n * TGAS });
    assert.deepEqual(status.status, fcError({ ExecutionError: 'Exceeded the prepaid gas.' }));
    assert.equal(first(status).outcome.receipt_ids.length, 1, 'only the refund');

    // With 300 Tgas: self.crossContractFailure() .then(self.triggerAssert()), the callback runs anyway.
    status = await call(alice, h1.accountId, 'crossContract', {}, { gas: 300n * TGAS });
    const main = first(status);
    assert.deepEqual(main.outcome.logs, [h1.accountId]);
    const [failing, callback] = main.outcome.receipt_ids;
    assert.deepEqual(main.outcome.status, { SuccessReceiptId: callback });
    const f = receiptOutcome(status, failing);
    assert.equal(f.outcome.executor_id, h1.accountId);
    assert.deepEqual(f.outcome.status, panicked('explicit guest panic'));
    assert.deepEqual(f.outcome.logs, ['log before planned panic']);
    const c = receiptOutcome(status, callback);
    const msg = 'expected to fail, filename: "assembly/index.ts" line: 77 col: 2';
    assert.deepEqual(c.outcome.status, panicked(msg));
    assert.deepEqual(c.outcome.logs, ['log before assert', `ABORT: ${msg}`]);
    assert.deepEqual(status.status, panicked(msg));
  });

  it('hello: callPromise h1 → h2.callbackWithName then h1.callbackWithName (receipt DAG)', async () => {
    const status = await call(
      alice,
      h1.accountId,
      'callPromise',
      promiseArgs(h2.accountId, 'callbackWithName'),
    );
    const main = first(status);
    assert.equal(main.outcome.executor_id, h1.accountId);
    const [remote, callback, refund] = main.outcome.receipt_ids;
    assert.equal(main.outcome.receipt_ids.length, 3);
    assert.deepEqual(main.outcome.status, { SuccessReceiptId: callback });

    const r = receiptOutcome(status, remote);
    assert.equal(r.outcome.executor_id, h2.accountId);
    assert.deepEqual(JSON.parse(successValue(r)), { rs: [], n: h2.accountId });
    const c = receiptOutcome(status, callback);
    assert.equal(c.outcome.executor_id, h1.accountId);
    const expected = { rs: [{ ok: true, r: { rs: [], n: h2.accountId } }], n: h1.accountId };
    assert.deepEqual(JSON.parse(successValue(c)), expected);
    assert.deepEqual(status.status, c.outcome.status, 'the tx ends with the callback value');
    assert.equal(receiptOutcome(status, refund).outcome.executor_id, alice.accountId);

    // The data dependency: the remote receipt sends its result to the callback's input data id.
    const remoteView = status.receipts.find((x: Json) => x.receipt_id === remote);
    const callbackView = status.receipts.find((x: Json) => x.receipt_id === callback);
    assert.equal(remoteView.predecessor_id, h1.accountId);
    assert.equal(remoteView.receipt.Action.signer_id, alice.accountId);
    const [{ data_id, receiver_id }] = remoteView.receipt.Action.output_data_receivers;
    assert.equal(receiver_id, h1.accountId);
    assert.deepEqual(callbackView.receipt.Action.input_data_ids, [data_id]);
    assert.deepEqual(callbackView.receipt.Action.actions, [
      {
        FunctionCall: {
          method_name: 'callbackWithName',
          // `callbackArgs` decoded as a PromiseArgs and encoded again: every field, null or "0".
          args: b64json({
            args: {
              receiver: null,
              methodName: null,
              args: null,
              gas: '0',
              balance: '0',
              callback: null,
              callbackArgs: null,
              callbackBalance: '0',
              callbackGas: '0',
            },
          }),
          gas: Number(10n * TGAS),
          deposit: '0',
        },
      },
    ]);

    assert.deepEqual(await view(h1.accountId, 'getLastResult'), {
      value: JSON.stringify(expected),
      logs: [],
    });
    assert.deepEqual(await view(h2.accountId, 'getLastResult'), {
      value: JSON.stringify({ rs: [], n: h2.accountId }),
      logs: [],
    });
  });

  it('hello: a failing promise reaches the callback as a failed result', async () => {
    const status = await call(alice, h1.accountId, 'callPromise', promiseArgs(h2.accountId, 'triggerAssert'));
    const main = first(status);
    const [remote, callback] = main.outcome.receipt_ids;
    const msg = 'expected to fail, filename: "assembly/index.ts" line: 77 col: 2';
    const r = receiptOutcome(status, remote);
    assert.deepEqual(r.outcome.status, panicked(msg));
    assert.deepEqual(r.outcome.logs, ['log before assert', `ABORT: ${msg}`]);
    const c = receiptOutcome(status, callback);
    const expected = { rs: [{ ok: false, r: null }], n: h1.accountId };
    assert.deepEqual(JSON.parse(successValue(c)), expected);
    assert.deepEqual(status.status, { SuccessValue: b64json(expected) });
    assert.deepEqual(await view(h1.accountId, 'getLastResult'), {
      value: JSON.stringify(expected),
      logs: [],
    });
  });

  it('hello: callPromiseAll joins two promises; the callback sees both results', async () => {
    const status = await call(
      alice,
      h1.accountId,
      'callPromiseAll',
      promiseArgs(h2.accountId, 'callbackWithName'),
    );
    // callPromiseAll does not return its promise: the transaction's value is the method's own (none).
    assert.deepEqual(status.status, { SuccessValue: '' });
    const main = first(status);
    assert.deepEqual(main.outcome.status, { SuccessValue: '' });
    const [a, b, callback] = main.outcome.receipt_ids;
    assert.equal(main.outcome.receipt_ids.length, 4, 'two calls, the callback and a refund');
    for (const id of [a, b]) {
      const o = receiptOutcome(status, id);
      assert.equal(o.outcome.executor_id, h2.accountId);
      assert.deepEqual(JSON.parse(successValue(o)), { rs: [], n: h2.accountId });
    }
    const c = receiptOutcome(status, callback);
    const expected = {
      rs: [
        { ok: true, r: { rs: [], n: h2.accountId } },
        { ok: true, r: { rs: [], n: h2.accountId } },
      ],
      n: h1.accountId,
    };
    assert.deepEqual(JSON.parse(successValue(c)), expected);
    const callbackView = status.receipts.find((x: Json) => x.receipt_id === callback);
    assert.equal(callbackView.receipt.Action.input_data_ids.length, 2);
    assert.deepEqual(await view(h1.accountId, 'getLastResult'), {
      value: JSON.stringify(expected),
      logs: [],
    });
  });

  it('hello: callPromiseAll with one failing side (triggerAssert twice) → both results failed', async () => {
    const status = await call(
      alice,
      h1.accountId,
      'callPromiseAll',
      promiseArgs(h2.accountId, 'triggerAssert'),
    );
    const [a, b, callback] = first(status).outcome.receipt_ids;
    for (const id of [a, b]) assert.ok('Failure' in receiptOutcome(status, id).outcome.status);
    const expected = {
      rs: [
        { ok: false, r: null },
        { ok: false, r: null },
      ],
      n: h1.accountId,
    };
    assert.deepEqual(JSON.parse(successValue(receiptOutcome(status, callback))), expected);
  });

  // ---- near-sdk-simulator ------------------------------------------------------------------------------

  it('words: reverse / upcase with Word objects, logs naming the contract', async () => {
    assert.deepEqual(await view(words.accountId, 'reverse', { word: { text: 'hello' } }), {
      value: '{"text":"olleh"}',
      logs: ['[words.examples] invoked function reverse(hello)'],
    });
    const status = await call(alice, words.accountId, 'upcase', { word: { text: 'hello' } });
    assert.deepEqual(status.status, { SuccessValue: b64json({ text: 'HELLO' }) });
    assert.deepEqual(first(status).outcome.logs, ['[words.examples] invoked function upcase(hello)']);
  });

  it('sentences: SetWord / GetWord (default before), sample, getBlock_timestamp', async () => {
    assert.deepEqual(await view(sentences.accountId, 'GetWord'), { value: '{"text":"DEFAULT"}', logs: [] });
    const before = await storageUsage(sentences.accountId);
    const status = await call(alice, sentences.accountId, 'SetWord', { word: { text: 'hello' } });
    assert.deepEqual(status.status, { SuccessValue: '' });
    assert.equal(
      await storageUsage(sentences.accountId),
      before + 40 + 'word'.length + '{"text":"hello"}'.length,
    );
    assert.deepEqual(await view(sentences.accountId, 'GetWord'), { value: '{"text":"hello"}', logs: [] });
    assert.deepEqual(await view(sentences.accountId, 'sample'), { value: '"hello world"', logs: [] });
    const ts = await call(alice, sentences.accountId, 'getBlock_timestamp');
    const height = await blockHeight(t.url, first(ts).block_hash);
    const blk = await rpc(t.url, 'block', { block_id: height });
    assert.deepEqual(ts.status, { SuccessValue: b64json(blk.header.timestamp_nanosec) });
  });

  it('sentences: reverseWordOne returns the remote promise (words.reverse)', async () => {
    const status = await call(alice, sentences.accountId, 'reverseWordOne');
    const main = first(status);
    const [remote] = main.outcome.receipt_ids;
    assert.deepEqual(main.outcome.status, { SuccessReceiptId: remote });
    const r = receiptOutcome(status, remote);
    assert.equal(r.outcome.executor_id, 'words.examples');
    assert.deepEqual(r.outcome.logs, ['[words.examples] invoked function reverse(sample)']);
    assert.deepEqual(status.status, { SuccessValue: b64json({ text: 'elpmas' }) });
  });

  it('sentences: reverseWordTwo / reverseWordThree callbacks check the remote result', async () => {
    for (const [method, callbackName, logs] of [
      ['reverseWordTwo', '_onReverseCalledTwo', [sentences.accountId]],
      ['reverseWordThree', '_onReverseCalledThree', ['{"word":{"text":"elpmas"}}', sentences.accountId]],
    ] as const) {
      const status = await call(alice, sentences.accountId, method);
      const main = first(status);
      assert.deepEqual(main.outcome.logs, logs);
      const [remote, callback] = main.outcome.receipt_ids;
      assert.deepEqual(main.outcome.status, { SuccessReceiptId: callback });
      assert.deepEqual(receiptOutcome(status, remote).outcome.status, {
        SuccessValue: b64json({ text: 'elpmas' }),
      });
      const c = receiptOutcome(status, callback);
      assert.equal(c.outcome.executor_id, sentences.accountId);
      assert.deepEqual(c.outcome.logs, ['{"text":"elpmas"}'], `${callbackName} logs the decoded word`);
      assert.deepEqual(status.status, { SuccessValue: b64json(true) }, method);
    }
  });

  it('sentences: contractPromiseBatch sends a function call the method does not wait for', async () => {
    const status = await call(alice, sentences.accountId, 'contractPromiseBatch');
    const main = first(status);
    assert.deepEqual(main.outcome.status, { SuccessValue: '' });
    const [remote] = main.outcome.receipt_ids;
    const r = receiptOutcome(status, remote);
    assert.equal(r.outcome.executor_id, 'words.examples');
    assert.deepEqual(r.outcome.status, { SuccessValue: b64json({ text: 'elpmas' }) });
    const view = status.receipts.find((x: Json) => x.receipt_id === remote);
    assert.deepEqual(view.receipt.Action.actions, [
      {
        FunctionCall: {
          method_name: 'reverse',
          args: b64json({ word: { text: 'sample' } }),
          gas: Number(10n * TGAS),
          deposit: '0',
        },
      },
    ]);
  });

  it('sentences: a deposit to a payable method stays; to a non-payable one fails and is refunded', async () => {
    const before = (await viewAccount(t.url, sentences.accountId))!.amount;
    let status = await call(
      alice,
      sentences.accountId,
      'payableFunction',
      {},
      { gas: 30n * TGAS, deposit: 10n },
    );
    assert.deepEqual(status.status, { SuccessValue: '' });
    const afterPayable = (await viewAccount(t.url, sentences.accountId))!.amount;
    // The contract gets the deposit and its share of the gas the Wasm burnt (the action fees excluded),
    // at the price of the block that ran the receipt.
    const receipt = first(status);
    const wasmGas =
      BigInt(receipt.outcome.gas_burnt) - t.fees.execGas(status.transaction.actions, sentences.accountId);
    const { numerator, denominator } = t.cfg.burntGasReward;
    const price = await applyGasPrice(t.url, await blockHeight(t.url, receipt.block_hash));
    assert.equal(afterPayable, before + 10n + ((wasmGas * numerator) / denominator) * price);

    status = await call(
      alice,
      sentences.accountId,
      'nonPayableFunction',
      {},
      { gas: 30n * TGAS, deposit: 10n },
    );
    const msg = `Method doesn't accept deposit, filename: "~lib/near-sdk-bindgen/index.ts" line: 21 col: 3`;
    assert.deepEqual(status.status, panicked(msg));
    const main = first(status);
    assert.deepEqual(main.outcome.logs, [`ABORT: ${msg}`]);
    // Refunds: the deposit (from system) and the unused gas.
    const refunds = main.outcome.receipt_ids.map((id: string) =>
      status.receipts.find((x: Json) => x.receipt_id === id),
    );
    assert.deepEqual(refunds[0].receipt.Action.actions, [{ Transfer: { deposit: '10' } }]);
    assert.equal(refunds[0].predecessor_id, 'system');
    assert.equal(refunds[0].receiver_id, alice.accountId);

    status = await call(alice, sentences.accountId, 'nonPayableFunction', {}, { gas: 30n * TGAS });
    assert.deepEqual(
      status.status,
      panicked(`shouldn't see this 0, filename: "assembly/__tests__/sentences.ts" line: 135 col: 3`),
    );
  });

  it('avlTree: insert, getSome, has, keys, values, size, height, isBalanced, remove', async () => {
    for (const [key, value] of [
      [5, 50],
      [3, 30],
      [8, 80],
      [1, 10],
    ]) {
      const status = await call(avl, avl.accountId, 'insert', { key, value }, { gas: 300n * TGAS });
      assert.deepEqual(status.status, { SuccessValue: '' });
    }
    const v = async (m: string, args: unknown = {}) => (await view(avl.accountId, m, args)).value;
    assert.equal(await v('getSome', { key: 8 }), '80');
    assert.equal(await v('has', { key: 3 }), 'true');
    assert.equal(await v('has', { key: 4 }), 'false');
    assert.equal(await v('keys'), '[1,3,5,8]');
    assert.equal(await v('values'), '[10,30,50,80]');
    assert.equal(await v('size'), '4');
    assert.equal(await v('height'), '3');
    assert.equal(await v('isBalanced'), 'true');
    assert.deepEqual(await view(avl.accountId, 'getSome', { key: 7 }), {
      error:
        'wasm execution failed with error: HostError(GuestPanic { panic_msg: "Key \'tree::val::7\' is not present in the storage, filename: \\"~lib/near-sdk-core/storage.ts\\" line: 235 col: 7" })',
      logs: [],
    });
    const status = await call(avl, avl.accountId, 'remove', { key: 5 }, { gas: 300n * TGAS });
    assert.deepEqual(status.status, { SuccessValue: '' });
    assert.equal(await v('keys'), '[1,3,8]');
    assert.equal(await v('size'), '3');
    assert.equal(await v('has', { key: 5 }), 'false');
  });

  it('singleton: methods with Wasm params are MethodInvalidSignature, a missing one MethodNotFound', async () => {
    for (const method of ['Singleton#visit', 'Singleton#owner', 'Singleton.decode']) {
      const status = await call(alice, single.accountId, method);
      assert.deepEqual(status.status, fcError({ MethodResolveError: 'MethodInvalidSignature' }), method);
    }
    assert.deepEqual(await view(single.accountId, 'Singleton#owner'), {
      error: 'wasm execution failed with error: MethodResolveError(MethodInvalidSignature)',
      logs: [],
    });
    const status = await call(alice, single.accountId, 'noSuchMethod');
    assert.deepEqual(status.status, fcError({ MethodResolveError: 'MethodNotFound' }));
    assert.deepEqual(await view(single.accountId, 'noSuchMethod'), {
      error: 'wasm execution failed with error: MethodResolveError(MethodNotFound)',
      logs: [],
    });
    // The exported `visit` wrapper needs the singleton stored by `init`.
    const visit = await call(alice, single.accountId, 'visit');
    const msg = 'contract is not initialized, filename: "assembly/__tests__/singleton.ts" line: 78 col: 3';
    assert.deepEqual(visit.status, panicked(msg));
    assert.deepEqual(first(visit).outcome.logs, [`ABORT: ${msg}`]);
  });

  it('exportAs: the renamed export `new` and the original `main` both return 42', async () => {
    assert.deepEqual(await view(exportAs.accountId, 'new'), { value: '42', logs: [] });
    assert.deepEqual(await view(exportAs.accountId, 'main'), { value: '42', logs: [] });
    const status = await call(alice, exportAs.accountId, 'new');
    assert.deepEqual(status.status, { SuccessValue: Buffer.from('42').toString('base64') });
  });

  // ---- bookkeeping -------------------------------------------------------------------------------------

  it('conserves tokens over every transaction of the file', async () => {
    await checkConservation(t, [...accounts], txs);
  });
});

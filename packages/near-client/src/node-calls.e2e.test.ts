/** The typed calls against a real started node (in memory, automine). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type RunningNode, silentLogger, startNode } from '@shadebox/node';
import { fullAccessKey, KeyPair, ONE_NEAR, TGAS } from '@shadebox/primitives';
import wabtInit from 'wabt';
import { block } from './block.js';
import { ContractError } from './contract-error.js';
import { KeyPool } from './key-pool.js';
import { outcomeResult } from './outcome-result.js';
import { QueryResultError } from './query-result-error.js';
import { RpcClient } from './rpc-client.js';
import { RpcError } from './rpc-error.js';
import { broadcastTxAsync, sendTransaction, TX_EXECUTION_LEVELS } from './send-transaction.js';
import { status } from './status.js';
import { txStatus } from './tx-status.js';
import { viewAccessKey, viewAccessKeyList } from './view-access-key.js';
import { availableBalance, NO_CODE_HASH, viewAccount } from './view-account.js';
import { viewFunction, viewFunctionRaw } from './view-function.js';

/** `hello` returns `"hi"`, `echo` returns its input, `boom` panics with "boom". */
const CONTRACT_WAT = `(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (import "env" "panic_utf8" (func $panic_utf8 (param i64 i64)))
  (memory 1)
  (data (i32.const 0) "\\"hi\\"")
  (data (i32.const 16) "boom")
  (func (export "hello") (call $value_return (i64.const 4) (i64.const 0)))
  (func (export "echo")
    (call $input (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 64))
    (call $value_return (call $register_len (i64.const 0)) (i64.const 64)))
  (func (export "boom") (call $panic_utf8 (i64.const 4) (i64.const 16))))`;

async function wat(src: string): Promise<Uint8Array> {
  const wabt = await wabtInit();
  const mod = wabt.parseWat('c.wat', src);
  try {
    return new Uint8Array(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

describe('typed calls against a node', () => {
  let node: RunningNode;
  let rpc: RpcClient;
  let root: KeyPool;
  const contractId = 'c.test.near';

  before(async () => {
    node = await startNode({ memory: true, rpcPort: 0, log: silentLogger });
    rpc = new RpcClient([node.rpcUrl], 20_000);
    const [account] = node.accounts;
    root = new KeyPool(rpc, account.accountId, [KeyPair.fromString(account.secretKey)]);
    outcomeResult(
      await root.send(contractId, [
        { type: 'CreateAccount' },
        { type: 'Transfer', deposit: 10n * ONE_NEAR },
        { type: 'DeployContract', code: await wat(CONTRACT_WAT) },
      ]),
    );
  });
  after(() => node?.stop());

  it('status and block', async () => {
    const s = await status(rpc);
    assert.equal(s.chain_id, node.chainId);
    const final = await block(rpc, { finality: 'final' });
    const byHeight = await block(rpc, { blockId: final.header.height });
    assert.equal(byHeight.header.hash, final.header.hash);
    const byHash = await block(rpc, { blockId: final.header.hash });
    assert.equal(byHash.header.height, final.header.height);
    assert.ok((await block(rpc)).header.height >= final.header.height);
  });

  it('viewAccount: balances as bigints, null for an unknown account', async () => {
    const c = await viewAccount(rpc, contractId);
    assert.ok(c);
    assert.equal(c.amount, 10n * ONE_NEAR);
    assert.equal(c.locked, 0n);
    assert.ok(c.storageUsage > 0n);
    assert.notEqual(c.codeHash, NO_CODE_HASH);
    assert.ok(availableBalance(c) < c.amount);
    assert.equal(await viewAccount(rpc, 'nobody.test.near'), null);
    const atFinal = await viewAccount(rpc, root.accountId, { finality: 'final' });
    assert.equal(
      (await viewAccount(rpc, root.accountId, { blockId: atFinal!.blockHeight }))!.amount,
      atFinal!.amount,
    );
  });

  it('viewAccessKey and viewAccessKeyList', async () => {
    const [publicKey] = root.publicKeys;
    const key = await viewAccessKey(rpc, root.accountId, publicKey);
    assert.ok(key.nonce > 0n, 'the root key has sent a transaction');
    assert.equal(key.permission, 'FullAccess');
    const list = await viewAccessKeyList(rpc, root.accountId);
    assert.deepEqual(
      list.map((k) => [k.publicKey, k.nonce]),
      [[publicKey, key.nonce]],
    );
    const missing = await viewAccessKey(rpc, root.accountId, KeyPair.fromRandom().publicKeyString).catch(
      (e) => e,
    );
    assert.ok(missing instanceof QueryResultError || missing instanceof RpcError, String(missing));
  });

  it('viewFunction decodes JSON, viewFunctionRaw gives bytes, failures are ContractErrors', async () => {
    assert.equal(await viewFunction(rpc, contractId, 'hello', {}), 'hi');
    assert.deepEqual(await viewFunction(rpc, contractId, 'echo', { a: [1, 2] }), { a: [1, 2] });
    const raw = await viewFunctionRaw(rpc, contractId, 'echo', new Uint8Array([1, 2, 3]), {
      finality: 'final',
    });
    assert.deepEqual([...raw.result], [1, 2, 3]);
    assert.ok(raw.blockHeight > 0);
    const panic = await viewFunction(rpc, contractId, 'boom', {}).catch((e) => e);
    assert.ok(panic instanceof ContractError);
    assert.deepEqual([panic.message, panic.panic], ['boom', true]);
    const noAccount = await viewFunction(rpc, 'nobody.test.near', 'hello', {}).catch((e) => e);
    assert.ok(noAccount instanceof ContractError);
    assert.equal(noAccount.message, 'the contract account does not exist');
    const noCode = await viewFunction(rpc, root.accountId, 'hello', {}).catch((e) => e);
    assert.ok(noCode instanceof ContractError);
    // nearcore answers CONTRACT_EXECUTION_ERROR with CodeDoesNotExist here (NO_CONTRACT_CODE is for view_code).
    assert.deepEqual([noCode.panic, /CodeDoesNotExist/.test(noCode.message)], [false, true]);
  });

  it('sendTransaction answers at every wait_until level, txStatus finds the transaction', async () => {
    for (const level of TX_EXECUTION_LEVELS) {
      const signed = await root.sign(contractId, [{ type: 'Transfer', deposit: 1n }]);
      const result = await sendTransaction(rpc, signed.bytes, level);
      if (level === 'NONE') assert.deepEqual(result, { final_execution_status: 'NONE' });
      else {
        const order = TX_EXECUTION_LEVELS.indexOf(result.final_execution_status);
        assert.ok(order >= TX_EXECUTION_LEVELS.indexOf(level), `${level}: ${result.final_execution_status}`);
      }
      const final = await txStatus(rpc, {
        txHash: signed.hash,
        senderAccountId: root.accountId,
        waitUntil: 'FINAL',
      });
      assert.equal(final.final_execution_status, 'FINAL');
      assert.equal(final.transaction.hash, signed.hash);
      assert.equal(outcomeResult(final), null);
    }
  });

  it('broadcastTxAsync gives the hash at once; EXPERIMENTAL_tx_status adds the receipts', async () => {
    const signed = await root.sign(contractId, [
      {
        type: 'FunctionCall',
        methodName: 'echo',
        args: new TextEncoder().encode('"x"'),
        gas: 10n * TGAS,
        deposit: 0n,
      },
    ]);
    assert.equal(await broadcastTxAsync(rpc, signed.base64), signed.hash);
    const result = await txStatus(rpc, {
      txHash: signed.hash,
      senderAccountId: root.accountId,
      waitUntil: 'EXECUTED',
      receipts: true,
    });
    assert.ok(Array.isArray(result.receipts));
    assert.equal(outcomeResult(result), 'x');
  });

  it('a failed call is a ContractError from outcomeResult', async () => {
    const outcome = await root.send(contractId, [
      { type: 'FunctionCall', methodName: 'boom', args: new Uint8Array(), gas: 10n * TGAS, deposit: 0n },
    ]);
    assert.throws(
      () => outcomeResult(outcome),
      (e) => e instanceof ContractError && e.panic && e.message === 'boom',
    );
  });

  it('the generic call reaches any method; unknown methods are RpcErrors', async () => {
    const gas = await rpc.call('gas_price', [null]);
    assert.match(gas.gas_price, /^\d+$/);
    const error = await rpc.call('no_such_method', {}).catch((e) => e);
    assert.ok(error instanceof RpcError);
    assert.equal(error.errorName, 'REQUEST_VALIDATION_ERROR');
    assert.equal(error.causeName, 'METHOD_NOT_FOUND');
  });

  it('adds keys to an account and signs with all of them', async () => {
    const keys = [KeyPair.fromRandom(), KeyPair.fromRandom()];
    outcomeResult(
      await root.send(
        root.accountId,
        keys.map((k) => ({ type: 'AddKey' as const, publicKey: k.publicKey, accessKey: fullAccessKey() })),
      ),
    );
    const list = await viewAccessKeyList(rpc, root.accountId);
    for (const k of keys) assert.ok(list.some((e) => e.publicKey === k.publicKeyString));
  });
});

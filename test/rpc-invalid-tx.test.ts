/**
 * Every `InvalidTxError` a transaction can meet before it becomes a receipt, provoked through `send_tx` and
 * `broadcast_tx_commit` against a started node, with the exact answer nearcore gives:
 *
 *   HTTP 200
 *   {"jsonrpc":"2.0","error":{"name":"HANDLER_ERROR","cause":{"info":{},"name":"INVALID_TRANSACTION"},
 *    "code":-32000,"message":"Server error","data":{"TxExecutionError":{"InvalidTxError":<variant>}}},"id":…}
 *
 * `info` is `{}` because nearcore's `context` field is `skip_serializing`; the reason is only in `data`. The
 * cause and data pass through `serde_json::Value` (a BTreeMap), so their keys are sorted: "info" before "name",
 * `{"InvalidNonce":{"ak_nonce":…,"tx_nonce":…}}`. Replies captured from a real near-sandbox 2.x show exactly
 * that (the order the brief and docs/rpc.md wrote, `name` before `info`, is struct order, not what is sent).
 *
 * Kinds that cannot happen on this node:
 * - `InvalidChain`: the transaction's block hash is a known block of another fork. A single producer makes no
 *   forks, so every known block is canonical; an unknown hash is `Expired` (tested).
 * - `ShardCongested` / `ShardStuck`: congestion control refuses transactions to a shard whose delayed receipts
 *   pile up or whose chunks go missing. Every receipt of a block executes in the next one and the one producer
 *   never misses a chunk, so neither state is reachable.
 * - `StorageError`: the state store failing or being inconsistent while the transaction is checked; not
 *   reachable through a request.
 * `InvalidTransactionVersion`: protocol 85 accepts `TransactionV1` (gas keys, strict nonces), so it is not
 *   reachable; a V1 naming a gas-key nonce for an ordinary key is `AccessKeyNotFound` (tested), the rest of
 *   the gas-key errors are in gas-keys.test.ts.
 * `InvalidSignerId` / `InvalidReceiverId` are a documented deviation (docs/deviations.md): nearcore fails to
 * decode such a transaction (PARSE_ERROR); Shadebox names the problem.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type Action,
  base58Decode,
  base58Encode,
  encodeSignature,
  encodeTransaction,
  functionCallAccessKey,
  type KeyPair,
  ONE_NEAR as NEAR,
  sha256,
  signDelegateAction,
  TGAS,
  type Transaction,
  transactionHash,
} from '@shadebox/primitives';
import { post, postRpc, type RawAnswer, sortedJson } from './support/raw-rpc.js';
import { headHash, keyNonce, rpc, viewAccountJson } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { buildTx, createAccount, sendTx } from './support/transactions.js';
import { testRandom } from './test-random.js';

const rng = testRandom('test/rpc-invalid-tx.test.ts');

const U128_MAX = 2n ** 128n - 1n;

/** The exact body nearcore sends for an `InvalidTxError` (the variant given as JSON text, to keep big u64s). */
function invalidTxBody(variantJson: string, id: unknown): string {
  return (
    '{"jsonrpc":"2.0","error":{"name":"HANDLER_ERROR","cause":{"info":{},"name":"INVALID_TRANSACTION"},' +
    `"code":-32000,"message":"Server error","data":{"TxExecutionError":{"InvalidTxError":${variantJson}}}},` +
    `"id":${JSON.stringify(id)}}`
  );
}

function assertInvalidTx(
  answer: RawAnswer,
  variant: unknown,
  id: unknown,
  variantJson = sortedJson(variant),
) {
  assert.equal(answer.status, 200, answer.text);
  assert.match(answer.contentType, /^application\/json/);
  assert.equal(answer.text, invalidTxBody(variantJson, id));
}

/** Sends `base64` with `send_tx` (default wait), `send_tx` with `wait_until: FINAL`, `broadcast_tx_commit`, and
 * `tx` by the signed transaction; each must answer `variant`. */
async function expectRejected(url: string, base64: string, variant: unknown, variantJson?: string) {
  assertInvalidTx(await postRpc(url, 'send_tx', { signed_tx_base64: base64 }, 1), variant, 1, variantJson);
  assertInvalidTx(
    await postRpc(url, 'send_tx', { signed_tx_base64: base64, wait_until: 'FINAL' }, 'a'),
    variant,
    'a',
    variantJson,
  );
  assertInvalidTx(await postRpc(url, 'broadcast_tx_commit', [base64], 7), variant, 7, variantJson);
  // `tx` on an unknown signed transaction checks it (nearcore's check_only) and answers the same error.
  assertInvalidTx(
    await postRpc(url, 'tx', { signed_tx_base64: base64, wait_until: 'NONE' }, null),
    variant,
    null,
    variantJson,
  );
}

/**
 * A signed transaction whose signer or receiver id is not a valid account id. The encoder refuses such ids, so
 * the transaction is encoded with a valid placeholder of the same length and the bytes are patched, then signed.
 */
function signedWithRawIds(
  tx: Transaction,
  key: KeyPair,
  patch: { signer?: string; receiver?: string },
): string {
  const bytes = encodeTransaction(tx);
  const put = (offset: number, text: string) => {
    const raw = new TextEncoder().encode(text);
    assert.equal(new DataView(bytes.buffer, bytes.byteOffset).getUint32(offset, true), raw.length);
    bytes.set(raw, offset + 4);
  };
  const signerLength = tx.signerId.length;
  if (patch.signer) put(0, patch.signer);
  // signer (4 + n) ‖ public key (1 + 32) ‖ nonce (8) ‖ receiver
  if (patch.receiver) put(4 + signerLength + 33 + 8, patch.receiver);
  const signature = key.sign(sha256(bytes));
  return Buffer.concat([bytes, encodeSignature(signature)]).toString('base64');
}

interface Fee {
  send_sir: number;
  send_not_sir: number;
  execution: number;
}

/**
 * What nearcore pre-charges for a transaction of transfers and function calls to another account
 * (`tx_cost`): the send fees burnt at the gas price, the execution fees and attached gas bought at the receipt
 * gas price `max(gas price, min_gas_purchase_price)`, plus the deposits. Computed from
 * `EXPERIMENTAL_protocol_config`, independently of the node's fee code.
 */
async function precharge(url: string, actions: Action[]): Promise<bigint> {
  const config = await rpc(url, 'EXPERIMENTAL_protocol_config', { finality: 'optimistic' });
  const costs = config.runtime_config.transaction_costs;
  const fees = costs.action_creation_config;
  const gasPrice = BigInt((await rpc(url, 'gas_price', [null])).gas_price);
  const minPurchase = BigInt(config.runtime_config.min_gas_purchase_price);
  const receiptPrice = gasPrice > minPurchase ? gasPrice : minPurchase;
  const arc: Fee = costs.action_receipt_creation_config;
  let send = BigInt(arc.send_not_sir);
  let exec = BigInt(arc.execution);
  let deposit = 0n;
  for (const action of actions) {
    if (action.type === 'Transfer') {
      send += BigInt(fees.transfer_cost.send_not_sir);
      exec += BigInt(fees.transfer_cost.execution);
      deposit += action.deposit;
    } else if (action.type === 'FunctionCall') {
      const bytes = BigInt(new TextEncoder().encode(action.methodName).length + action.args.length);
      const perByte: Fee = fees.function_call_cost_per_byte;
      send += BigInt(fees.function_call_cost.send_not_sir) + BigInt(perByte.send_not_sir) * bytes;
      exec += BigInt(fees.function_call_cost.execution) + BigInt(perByte.execution) * bytes + action.gas;
      deposit += action.deposit;
    } else throw new Error(`no fee model for ${action.type}`);
  }
  return send * gasPrice + exec * receiptPrice + deposit;
}

describe('InvalidTxError through send_tx and broadcast_tx_commit', { timeout: 180_000 }, () => {
  let t: TestNode;
  let url: string;
  let alice: { accountId: string; key: KeyPair };
  /** Function-call key of alice: receiver bob.test.near, method `hello`, allowance 1 NEAR. */
  let fcKey: KeyPair;
  /** Function-call key of alice with an allowance of 1 yoctoNEAR. */
  let poorKey: KeyPair;
  /** What a plain transfer between two other accounts costs in fees (measured). */
  let transferFee: bigint;
  const before_: Record<string, unknown> = {};
  const watched = ['test.near', 'alice.test.near', 'bob.test.near', 'dave.test.near'];

  before(async () => {
    t = await startTestNode();
    url = t.url;
    alice = await createAccount(url, t.rootSigner, 'alice.test.near', 50n * NEAR);
    await createAccount(url, t.rootSigner, 'bob.test.near', 5n * NEAR);
    fcKey = rng.keyPair();
    poorKey = rng.keyPair();
    await sendTx(url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: alice.accountId,
      actions: [
        {
          type: 'AddKey',
          publicKey: fcKey.publicKey,
          accessKey: functionCallAccessKey('bob.test.near', ['hello'], NEAR),
        },
        {
          type: 'AddKey',
          publicKey: poorKey.publicKey,
          accessKey: functionCallAccessKey('bob.test.near', [], 1n),
        },
      ],
    });
    const balance0 = BigInt((await viewAccountJson(url, alice.accountId)).amount);
    await sendTx(url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: 'bob.test.near',
      actions: [{ type: 'Transfer', deposit: NEAR }],
    });
    // After execution the price surplus is refunded: the transfer costs its fees at the gas price.
    transferFee = balance0 - BigInt((await viewAccountJson(url, alice.accountId)).amount) - NEAR;
    assert.ok(transferFee > 0n && transferFee < (await precharge(url, [{ type: 'Transfer', deposit: 0n }])));
  });

  after(async () => {
    await t?.stop();
  });

  async function snapshot() {
    const out: Record<string, unknown> = {};
    for (const id of watched) {
      const answer = await postRpc(url, 'query', {
        request_type: 'view_account',
        finality: 'optimistic',
        account_id: id,
      });
      const r = answer.json.result ?? answer.json.error.cause.name;
      out[id] =
        typeof r === 'string' ? r : { amount: r.amount, locked: r.locked, storage_usage: r.storage_usage };
    }
    const keys = await rpc(url, 'query', {
      request_type: 'view_access_key_list',
      finality: 'optimistic',
      account_id: alice.accountId,
    });
    out.aliceKeys = keys.keys;
    return out;
  }

  test('balances and keys before the rejections', async () => {
    Object.assign(before_, await snapshot());
  });

  const aliceTx = async (
    actions: Action[],
    fields: { nonce?: bigint; receiverId?: string; key?: KeyPair } = {},
  ) =>
    buildTx(url, {
      signerId: alice.accountId,
      key: fields.key ?? alice.key,
      receiverId: fields.receiverId ?? 'bob.test.near',
      actions,
      nonce: fields.nonce,
    });

  test('InvalidAccessKeyError: AccessKeyNotFound', async () => {
    const stranger = rng.keyPair();
    const tx = await buildTx(url, {
      signerId: alice.accountId,
      key: stranger,
      nonce: 1n,
      receiverId: 'bob.test.near',
      actions: [{ type: 'Transfer', deposit: 1n }],
    });
    await expectRejected(url, tx.base64, {
      InvalidAccessKeyError: {
        AccessKeyNotFound: { account_id: alice.accountId, public_key: stranger.publicKeyString },
      },
    });
  });

  test('InvalidAccessKeyError: ReceiverMismatch, MethodNameMismatch, RequiresFullAccess, DepositWithFunctionCall', async () => {
    const call_ = (method: string, deposit = 0n): Action => ({
      type: 'FunctionCall',
      methodName: method,
      args: new Uint8Array(),
      gas: 10n * TGAS,
      deposit,
    });
    await expectRejected(
      url,
      (await aliceTx([call_('hello')], { key: fcKey, receiverId: 'test.near' })).base64,
      {
        InvalidAccessKeyError: {
          ReceiverMismatch: { tx_receiver: 'test.near', ak_receiver: 'bob.test.near' },
        },
      },
    );
    await expectRejected(url, (await aliceTx([call_('other')], { key: fcKey })).base64, {
      InvalidAccessKeyError: { MethodNameMismatch: { method_name: 'other' } },
    });
    await expectRejected(url, (await aliceTx([{ type: 'Transfer', deposit: 1n }], { key: fcKey })).base64, {
      InvalidAccessKeyError: 'RequiresFullAccess',
    });
    await expectRejected(url, (await aliceTx([call_('hello'), call_('hello')], { key: fcKey })).base64, {
      InvalidAccessKeyError: 'RequiresFullAccess',
    });
    await expectRejected(url, (await aliceTx([call_('hello', 1n)], { key: fcKey })).base64, {
      InvalidAccessKeyError: 'DepositWithFunctionCall',
    });
  });

  test('InvalidAccessKeyError: NotEnoughAllowance', async () => {
    const action: Action = {
      type: 'FunctionCall',
      methodName: 'hello',
      args: new Uint8Array(3),
      gas: 10n * TGAS,
      deposit: 0n,
    };
    await expectRejected(url, (await aliceTx([action], { key: poorKey })).base64, {
      InvalidAccessKeyError: {
        NotEnoughAllowance: {
          account_id: alice.accountId,
          public_key: poorKey.publicKeyString,
          allowance: '1',
          cost: (await precharge(url, [action])).toString(),
        },
      },
    });
  });

  test('InvalidSignerId and InvalidReceiverId (documented deviation: nearcore fails decoding)', async () => {
    const key = rng.keyPair();
    const base = {
      version: 0 as const,
      publicKey: key.publicKey,
      nonce: 1n,
      blockHash: base58Decode(await headHash(url)),
      actions: [{ type: 'Transfer', deposit: 1n } as Action],
    };
    const badSigner = signedWithRawIds({ ...base, signerId: 'alicex', receiverId: 'bob.test.near' }, key, {
      signer: 'Alice!',
    });
    await expectRejected(url, badSigner, { InvalidSignerId: { signer_id: 'Alice!' } });
    const badReceiver = signedWithRawIds(
      { ...base, signerId: alice.accountId, receiverId: 'bob-near' },
      key,
      {
        receiver: 'Bob Near',
      },
    );
    await expectRejected(url, badReceiver, { InvalidReceiverId: { receiver_id: 'Bob Near' } });
  });

  test('SignerDoesNotExist', async () => {
    const key = rng.keyPair();
    const tx = await buildTx(url, {
      signerId: 'ghost.test.near',
      key,
      nonce: 1n,
      receiverId: 'bob.test.near',
      actions: [{ type: 'Transfer', deposit: 1n }],
    });
    await expectRejected(url, tx.base64, { SignerDoesNotExist: { signer_id: 'ghost.test.near' } });
  });

  test('InvalidNonce: the key nonce itself, and a lower one', async () => {
    const akNonce = await keyNonce(url, alice.accountId, alice.key.publicKeyString);
    for (const nonce of [akNonce, akNonce - 5n]) {
      const tx = await aliceTx([{ type: 'Transfer', deposit: 1n }], { nonce });
      await expectRejected(url, tx.base64, {
        InvalidNonce: { tx_nonce: Number(nonce), ak_nonce: Number(akNonce) },
      });
    }
  });

  test('NonceTooLarge: (head height + 1) × 1e6, and u64::MAX written exactly', async () => {
    const head = await rpc(url, 'block', { finality: 'optimistic' });
    const upper = BigInt(head.header.height + 1) * 1_000_000n;
    const tx = await aliceTx([{ type: 'Transfer', deposit: 1n }], { nonce: upper });
    await expectRejected(url, tx.base64, {
      NonceTooLarge: { tx_nonce: Number(upper), upper_bound: Number(upper) },
    });
    // One below the bound passes the check (checked without pooling it: `tx` by signed transaction, NONE).
    const fits = await aliceTx([{ type: 'Transfer', deposit: 1n }], { nonce: upper - 1n });
    const probe = await postRpc(url, 'tx', { signed_tx_base64: fits.base64, wait_until: 'NONE' });
    assert.equal(probe.json.error.cause.name, 'UNKNOWN_TRANSACTION');

    const max = 2n ** 64n - 1n;
    const huge = await aliceTx([{ type: 'Transfer', deposit: 1n }], { nonce: max });
    await expectRejected(
      url,
      huge.base64,
      null,
      `{"NonceTooLarge":{"tx_nonce":${max},"upper_bound":${upper}}}`,
    );
  });

  test('InvalidSignature', async () => {
    const tx = await buildTx(url, {
      signerId: alice.accountId,
      key: alice.key,
      signWith: rng.keyPair(),
      receiverId: 'bob.test.near',
      actions: [{ type: 'Transfer', deposit: 1n }],
    });
    await expectRejected(url, tx.base64, 'InvalidSignature');
  });

  test('NotEnoughBalance', async () => {
    const balance = BigInt((await viewAccountJson(url, alice.accountId)).amount);
    const actions: Action[] = [{ type: 'Transfer', deposit: 1000n * NEAR }];
    const tx = await aliceTx(actions);
    await expectRejected(url, tx.base64, {
      NotEnoughBalance: {
        signer_id: alice.accountId,
        balance: balance.toString(),
        cost: (await precharge(url, actions)).toString(),
      },
    });
  });

  test('LackBalanceForState: an account above the zero-balance limit sending too much', async () => {
    // dave holds a 1,000-byte contract: over the 770 bytes a zero-balance account may use.
    const dave = await createAccount(url, t.rootSigner, 'dave.test.near', NEAR);
    await sendTx(url, {
      signerId: dave.accountId,
      key: dave.key,
      receiverId: dave.accountId,
      actions: [{ type: 'DeployContract', code: new Uint8Array(1000) }],
    });
    Object.assign(before_, await snapshot());
    const view = await viewAccountJson(url, dave.accountId);
    const required = BigInt(view.storage_usage) * 10n ** 19n;
    const balance = BigInt(view.amount);
    // Leave 12345 yoctoNEAR less than the storage needs, after the pre-charged fees.
    const fees = await precharge(url, [{ type: 'Transfer', deposit: 0n }]);
    const deposit = balance - fees - required + 12345n;
    const tx = await buildTx(url, {
      signerId: dave.accountId,
      key: dave.key,
      receiverId: 'bob.test.near',
      actions: [{ type: 'Transfer', deposit }],
    });
    await expectRejected(url, tx.base64, {
      LackBalanceForState: { signer_id: dave.accountId, amount: '12345' },
    });
  });

  test('CostOverflow: deposits beyond u128', async () => {
    await expectRejected(
      url,
      (await aliceTx([{ type: 'Transfer', deposit: U128_MAX }])).base64,
      'CostOverflow',
    );
    const half = U128_MAX / 2n + 1n;
    const two = await aliceTx([
      { type: 'Transfer', deposit: half },
      { type: 'Transfer', deposit: half },
    ]);
    await expectRejected(url, two.base64, 'CostOverflow');
  });

  test('Expired: a block hash the node does not know', async () => {
    const tx = await buildTx(url, {
      signerId: alice.accountId,
      key: alice.key,
      blockHash: sha256(new TextEncoder().encode('no such block')),
      receiverId: 'bob.test.near',
      actions: [{ type: 'Transfer', deposit: 1n }],
    });
    await expectRejected(url, tx.base64, 'Expired');
  });

  test('ActionsValidation: every ActionsValidationError', async () => {
    const fc = (fields: Partial<{ methodName: string; args: Uint8Array; gas: bigint }> = {}): Action => ({
      type: 'FunctionCall',
      methodName: fields.methodName ?? 'hello',
      args: fields.args ?? new Uint8Array(),
      gas: fields.gas ?? 10n * TGAS,
      deposit: 0n,
    });
    const addFcKey = (receiverId: string, methodNames: string[]): Action => ({
      type: 'AddKey',
      publicKey: rng.keyPair().publicKey,
      accessKey: functionCallAccessKey(receiverId, methodNames, null),
    });
    const rejects = async (actions: Action[], error: unknown) =>
      expectRejected(url, (await aliceTx(actions)).base64, { ActionsValidation: error });

    await rejects(
      [
        { type: 'DeleteAccount', beneficiaryId: 'bob.test.near' },
        { type: 'Transfer', deposit: 1n },
      ],
      'DeleteActionMustBeFinal',
    );
    await rejects([fc({ gas: 600n * TGAS }), fc({ gas: 600n * TGAS })], {
      TotalPrepaidGasExceeded: { total_prepaid_gas: 1_200_000_000_000_000, limit: 1_000_000_000_000_000 },
    });
    await rejects([fc({ gas: 2n ** 63n }), fc({ gas: 2n ** 63n })], 'IntegerOverflow');
    await rejects(
      Array.from({ length: 101 }, () => ({ type: 'Transfer', deposit: 1n }) as Action),
      { TotalNumberOfActionsExceeded: { total_number_of_actions: 101, limit: 100 } },
    );
    // 20 names of 100 bytes: nearcore counts a terminating byte per name, 20 × 101 = 2020 > 2000.
    await rejects(
      [
        addFcKey(
          'bob.test.near',
          Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(100, 'm')),
        ),
      ],
      {
        AddKeyMethodNamesNumberOfBytesExceeded: { total_number_of_bytes: 2020, limit: 2000 },
      },
    );
    await rejects([addFcKey('bob.test.near', ['m'.repeat(257)])], {
      AddKeyMethodNameLengthExceeded: { length: 257, limit: 256 },
    });
    await rejects([addFcKey('Not Valid', [])], { InvalidAccountId: { account_id: 'Not Valid' } });
    // nearcore truncates the id it reports to 128 bytes.
    await rejects([addFcKey('X'.repeat(200), [])], { InvalidAccountId: { account_id: 'X'.repeat(128) } });
    await rejects([{ type: 'DeployContract', code: new Uint8Array(4 * 1024 * 1024 + 1) }], {
      ContractSizeExceeded: { size: 4_194_305, limit: 4_194_304 },
    });
    await rejects([fc({ methodName: 'm'.repeat(257) })], {
      FunctionCallMethodNameLengthExceeded: { length: 257, limit: 256 },
    });
    await rejects([fc({ args: new Uint8Array(4 * 1024 * 1024 + 1) })], {
      FunctionCallArgumentsLengthExceeded: { length: 4_194_305, limit: 4_194_304 },
    });
    const secp = rng.keyPair('secp256k1');
    await rejects([{ type: 'Stake', stake: NEAR, publicKey: secp.publicKey }], {
      UnsuitableStakingKey: { public_key: secp.publicKeyString },
    });
    await rejects([fc({ gas: 0n })], 'FunctionCallZeroAttachedGas');

    const head = await rpc(url, 'block', { finality: 'optimistic' });
    const delegate = () => ({
      type: 'Delegate' as const,
      signedDelegateAction: signDelegateAction(
        {
          senderId: alice.accountId,
          receiverId: 'bob.test.near',
          actions: [{ type: 'Transfer', deposit: 1n }],
          nonce: 1_000_000n,
          maxBlockHeight: BigInt(head.header.height + 100),
          publicKey: alice.key.publicKey,
        },
        alice.key,
      ),
    });
    await rejects([delegate(), delegate()], 'DelegateActionMustBeOnlyOne');
    // Inside a delegate action the same rules hold.
    await rejects(
      [
        {
          type: 'Delegate',
          signedDelegateAction: signDelegateAction(
            {
              senderId: alice.accountId,
              receiverId: 'bob.test.near',
              actions: [fc({ gas: 0n })],
              nonce: 1_000_000n,
              maxBlockHeight: BigInt(head.header.height + 100),
              publicKey: alice.key.publicKey,
            },
            alice.key,
          ),
        },
      ],
      'FunctionCallZeroAttachedGas',
    );
  });

  test('TransactionSizeExceeded', async () => {
    const tx = await aliceTx([
      {
        type: 'FunctionCall',
        methodName: 'hello',
        args: new Uint8Array(1_600_000),
        gas: 10n * TGAS,
        deposit: 0n,
      },
    ]);
    const size = encodeTransaction(tx.transaction).length;
    assert.ok(size > 1_572_864);
    await expectRejected(url, tx.base64, { TransactionSizeExceeded: { size, limit: 1_572_864 } });
  });

  test('a TransactionV1 with a gas-key nonce for an ordinary key: AccessKeyNotFound', async () => {
    const tx = await buildTx(url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: 'bob.test.near',
      actions: [{ type: 'Transfer', deposit: 1n }],
      nonceIndex: 0,
    });
    await expectRejected(url, tx.base64, {
      InvalidAccessKeyError: {
        AccessKeyNotFound: { account_id: alice.accountId, public_key: alice.key.publicKeyString },
      },
    });
  });

  test('wait_until NONE does not report the rejection (nearcore hands the transaction over unchecked)', async () => {
    const tx = await aliceTx([{ type: 'Transfer', deposit: U128_MAX }]);
    const answer = await postRpc(url, 'send_tx', { signed_tx_base64: tx.base64, wait_until: 'NONE' }, 3);
    assert.equal(answer.status, 200);
    assert.equal(answer.text, '{"jsonrpc":"2.0","result":{"final_execution_status":"NONE"},"id":3}');
    const async_ = await postRpc(url, 'broadcast_tx_async', [tx.base64], 4);
    assert.equal(
      async_.text,
      `{"jsonrpc":"2.0","result":"${base58Encode(transactionHash(tx.transaction))}","id":4}`,
    );
    // Dropped: the node does not know it.
    const status = await postRpc(url, 'tx', {
      tx_hash: base58Encode(transactionHash(tx.transaction)),
      sender_account_id: alice.accountId,
      wait_until: 'NONE',
    });
    assert.equal(status.json.error.cause.name, 'UNKNOWN_TRANSACTION');
  });

  test('rejected transactions changed no balance, key or nonce', async () => {
    assert.deepEqual(await snapshot(), before_);
  });

  test('an identical resubmission is idempotent; another transaction with a used nonce is InvalidNonce', async () => {
    const nonce = (await keyNonce(url, alice.accountId, alice.key.publicKeyString)) + 1n;
    const tx = await aliceTx([{ type: 'Transfer', deposit: 7n }], { nonce });
    const first = await postRpc(url, 'send_tx', { signed_tx_base64: tx.base64, wait_until: 'FINAL' }, 1);
    assert.equal(first.status, 200);
    assert.equal(first.json.result.final_execution_status, 'FINAL');
    const balance = (await viewAccountJson(url, alice.accountId)).amount;

    const again = await postRpc(url, 'send_tx', { signed_tx_base64: tx.base64, wait_until: 'FINAL' }, 1);
    assert.equal(again.text, first.text);
    const commit = await postRpc(url, 'broadcast_tx_commit', [tx.base64], 1);
    assert.equal(commit.status, 200);
    assert.deepEqual(commit.json.result.transaction_outcome, first.json.result.transaction_outcome);
    assert.deepEqual(commit.json.result.receipts_outcome, first.json.result.receipts_outcome);
    const asyncAgain = await postRpc(url, 'broadcast_tx_async', [tx.base64], 1);
    assert.equal(asyncAgain.json.result, first.json.result.transaction.hash);
    const none = await postRpc(url, 'send_tx', { signed_tx_base64: tx.base64, wait_until: 'NONE' }, 1);
    assert.deepEqual(none.json.result, { final_execution_status: 'NONE' });
    // Charged once.
    assert.equal((await viewAccountJson(url, alice.accountId)).amount, balance);

    const other = await aliceTx([{ type: 'Transfer', deposit: 8n }], { nonce });
    await expectRejected(url, other.base64, {
      InvalidNonce: { tx_nonce: Number(nonce), ak_nonce: Number(nonce) },
    });
    assert.equal((await viewAccountJson(url, alice.accountId)).amount, balance);
  });

  test('the node keeps serving after all of this', async () => {
    const s = await post(url, undefined, { method: 'GET', path: '/status', contentType: null });
    assert.equal(s.status, 200);
    assert.equal(typeof s.json.sync_info.latest_block_height, 'number');
  });
});

describe('Expired: a block hash older than the validity period (100 blocks)', { timeout: 60_000 }, () => {
  let t: TestNode;

  before(async () => {
    t = await startTestNode({ production: { kind: 'manual' } });
  });

  after(async () => {
    await t?.stop();
  });

  test('valid while head ≤ base height + 100, Expired after', async () => {
    const genesis = await rpc(t.url, 'block', { block_id: 0 });
    const tx = await buildTx(t.url, {
      signerId: t.rootId,
      key: t.rootSigner.key,
      blockHash: base58Decode(genesis.header.hash),
      receiverId: t.rootId,
      actions: [{ type: 'Transfer', deposit: 1n }],
    });
    t.node.producer.produce(100);
    assert.equal((await rpc(t.url, 'block', { finality: 'optimistic' })).header.height, 100);
    // Still valid: checked without pooling (`tx` by signed transaction answers UNKNOWN_TRANSACTION, not INVALID).
    const probe = await postRpc(t.url, 'tx', { signed_tx_base64: tx.base64, wait_until: 'NONE' });
    assert.equal(probe.json.error.cause.name, 'UNKNOWN_TRANSACTION', probe.text);

    t.node.producer.produce(1);
    await expectRejected(t.url, tx.base64, 'Expired');
    // nearcore's pool would drop it the same way at inclusion; nothing was pooled here.
    const balance = (await viewAccountJson(t.url, t.rootId)).amount;
    t.node.producer.produce(3);
    assert.equal((await viewAccountJson(t.url, t.rootId)).amount, balance);
  });

  test('a transaction accepted in manual mode waits for blocks, then answers', async () => {
    const tx = await buildTx(t.url, {
      signerId: t.rootId,
      key: t.rootSigner.key,
      receiverId: t.rootId,
      actions: [{ type: 'Transfer', deposit: 1n }],
    });
    const pending = postRpc(t.url, 'send_tx', { signed_tx_base64: tx.base64, wait_until: 'FINAL' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    t.node.producer.produce(4);
    const answer = await pending;
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.json.result.final_execution_status, 'FINAL');
  });
});

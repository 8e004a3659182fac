/**
 * nearcore 2.14's RPC surface in process: paginated `view_access_key_list` and `view_state`, the
 * `EXPERIMENTAL_view_*` family and `EXPERIMENTAL_call_function` (each equal to its `query` form at the same
 * block, at a finality and at a block id), the non-EXPERIMENTAL twins (equal to their EXPERIMENTAL names), and
 * `EXPERIMENTAL_receipt_to_tx` walking real receipt chains. Answers are validated against nearcore's
 * OpenAPI-derived Zod schemas (@near-js/jsonrpc-types 1.7.3, jsonrpc-types-1.7.3.ts) where they have one.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { before, describe, test } from 'node:test';
import {
  base58Decode,
  base58Encode,
  createTransaction,
  encodePublicKeyHandle,
  encodeSignedTransaction,
  KeyPair,
  parsePublicKey,
  parsePublicKeyHandle,
  sha256,
  signTransaction,
} from '@shadebox/primitives';
import { createInMemoryRpcContext } from '../in-memory-context.js';
import { handleJsonRpc } from '../jsonrpc.js';
import { loadJsonRpcTypes173 } from '../test-support/jsonrpc-types-1.7.3.js';

const HELLO = readFileSync(createRequire(import.meta.url).resolve('near-hello/dist/main.wasm'));
const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');
const AMOUNT = '10000000000000000000000000';

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field.
type Json = any;

describe('nearcore 2.14 RPC surface', { timeout: 120_000 }, () => {
  const ctx = createInMemoryRpcContext({ blocks: 1 });
  const keyHolders = Array.from({ length: 105 }, () => KeyPair.fromRandom());
  const zod = loadJsonRpcTypes173();

  async function call(method: string, params: unknown): Promise<{ status: number; json: Json }> {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
    const answer = await handleJsonRpc(ctx, body);
    return { status: answer.status, json: JSON.parse(answer.body) };
  }
  async function result(method: string, params: unknown): Promise<Json> {
    const { json } = await call(method, params);
    assert.ok('result' in json, `${method} ${JSON.stringify(params)}: ${JSON.stringify(json)}`);
    return json.result;
  }
  async function error(method: string, params: unknown): Promise<Json> {
    const { json } = await call(method, params);
    assert.ok('error' in json, `${method} ${JSON.stringify(params)}: ${JSON.stringify(json)}`);
    return json.error;
  }
  /** Validates `value` (snake_case, as on the wire) against a 1.7.3 schema, when the schemas are at hand. */
  async function validates(schemaName: string, value: unknown) {
    const schemas = await zod;
    if (!schemas) return;
    const parsed = schemas.schema(schemaName).safeParse(schemas.toCamel(value));
    assert.ok(parsed.success, `${schemaName}: ${JSON.stringify(parsed.error?.issues ?? [], null, 1)}`);
  }

  async function sendTx(receiverId: string, actions: Parameters<typeof createTransaction>[0]['actions']) {
    const { accountId, key } = ctx.root;
    const ak = await result('query', {
      request_type: 'view_access_key',
      finality: 'optimistic',
      account_id: accountId,
      public_key: key.publicKeyString,
    });
    const tx = createTransaction({
      signerId: accountId,
      publicKey: parsePublicKey(key.publicKeyString),
      nonce: BigInt(ak.nonce) + 1n,
      receiverId,
      blockHash: base58Decode(ctx.chain.head.hash),
      actions,
    });
    const signed = b64(encodeSignedTransaction(signTransaction(tx, key)));
    const sent = call('send_tx', { signed_tx_base64: signed, wait_until: 'FINAL' });
    // Manual production: blocks until the transaction and its receipts are final.
    for (let i = 0; i < 8; i++) ctx.producer.produce(1);
    const { json } = await sent;
    assert.ok(json.result, JSON.stringify(json));
    return json.result.transaction.hash as string;
  }

  before(async () => {
    const patch = await call('sandbox_patch_state', {
      records: [
        { Account: { account_id: 'keys.test.near', account: { amount: AMOUNT, locked: '0' } } },
        ...keyHolders.map((k, i) => ({
          AccessKey: {
            account_id: 'keys.test.near',
            public_key: k.publicKeyString,
            access_key: {
              nonce: i,
              permission:
                i % 2
                  ? 'FullAccess'
                  : { FunctionCall: { allowance: null, receiver_id: 'hello.test.near', method_names: [] } },
            },
          },
        })),
        { Account: { account_id: 'hello.test.near', account: { amount: AMOUNT, locked: '0' } } },
        { Contract: { account_id: 'hello.test.near', code: b64(HELLO) } },
        ...Array.from({ length: 30 }, (_, i) => ({
          Data: {
            account_id: 'hello.test.near',
            data_key: b64(`k${String(i).padStart(2, '0')}`),
            value: b64(`value-${i}`),
          },
        })),
      ],
    });
    assert.deepEqual(patch.json.result, {}, JSON.stringify(patch.json));
    for (let i = 0; i < 4; i++) ctx.producer.produce(1);
  });

  test('view_access_key_list without after_key or limit: every key, but over 100 keys TOO_MANY_ACCESS_KEYS', async () => {
    const root = await result('query', {
      request_type: 'view_access_key_list',
      finality: 'final',
      account_id: ctx.root.accountId,
    });
    assert.equal(root.keys.length, 1);
    assert.equal('last_key' in root, false);
    await validates('RpcViewAccessKeyListResponseSchema', root);

    const e = await error('query', {
      request_type: 'view_access_key_list',
      finality: 'final',
      account_id: 'keys.test.near',
    });
    assert.equal(e.name, 'HANDLER_ERROR');
    assert.equal(e.cause.name, 'TOO_MANY_ACCESS_KEYS');
    assert.equal(e.cause.info.limit, 100);
    assert.equal(e.cause.info.requested_account_id, 'keys.test.near');
    assert.equal(
      e.data,
      'Account keys.test.near has more than 100 access keys; use a paginated view_access_key_list request',
    );
  });

  test('view_access_key_list pages: limit, after_key, last_key; in state order; limit clamped to 100', async () => {
    const head = ctx.chain.head.height;
    const page = (extra: object) =>
      result('query', {
        request_type: 'view_access_key_list',
        block_id: head,
        account_id: 'keys.test.near',
        ...extra,
      });
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const p = await page(after ? { after_key: after, limit: 40 } : { limit: 40 });
      assert.ok(p.keys.length <= 40);
      seen.push(...p.keys.map((k: Json) => k.public_key));
      if (!p.last_key) break;
      assert.equal(p.last_key, p.keys[p.keys.length - 1].public_key);
      after = p.last_key;
    }
    assert.equal(seen.length, 105);
    const order = (k: string) => Buffer.from(encodePublicKeyHandle(parsePublicKeyHandle(k)));
    const sorted = [...seen].sort((a, b) => Buffer.compare(order(a), order(b)));
    assert.deepEqual(seen, sorted, 'state order');
    assert.deepEqual(new Set(seen), new Set(keyHolders.map((k) => k.publicKeyString)));

    const clamped = await page({ limit: 1000 });
    assert.equal(clamped.keys.length, 100);
    assert.equal(clamped.last_key, seen[99]);
    // after_key alone pages with the default page size; the last page has no last_key.
    const tail = await page({ after_key: seen[99] });
    assert.deepEqual(
      tail.keys.map((k: Json) => k.public_key),
      seen.slice(100),
    );
    assert.equal('last_key' in tail, false);
    // after_key need not be one of the account's keys.
    const fromOther = await page({ after_key: KeyPair.fromRandom().publicKeyString, limit: 200 });
    assert.ok(fromOther.keys.length <= 100);

    const refused = async (extra: object, message: string) => {
      const e = await error('query', {
        request_type: 'view_access_key_list',
        finality: 'final',
        account_id: 'keys.test.near',
        ...extra,
      });
      assert.equal(e.cause.name, 'PARSE_ERROR');
      assert.equal(e.data, `Failed parsing args: ${message}`);
    };
    await refused({ limit: 0 }, 'invalid value: integer `0`, expected a nonzero u32');
    await refused({ limit: 4294967296 }, 'invalid value: integer `4294967296`, expected a nonzero u32');
    await refused({ limit: '5' }, 'invalid type: string "5", expected a nonzero u32');
  });

  test('view_state pages: limit, after_key_base64, last_key; include_proof is refused with them', async () => {
    const base = {
      request_type: 'view_state',
      finality: 'final',
      account_id: 'hello.test.near',
      prefix_base64: '',
    };
    const whole = await result('query', base);
    assert.equal(whole.values.length, 30);
    const keys: string[] = [];
    let after: string | undefined;
    for (;;) {
      const p = await result('query', { ...base, limit: 7, ...(after ? { after_key_base64: after } : {}) });
      keys.push(...p.values.map((v: Json) => v.key));
      await validates('RpcViewStateResponseSchema', p);
      if (!p.last_key) break;
      after = p.last_key;
    }
    assert.deepEqual(
      keys,
      whole.values.map((v: Json) => v.key),
    );
    // The viewer's refusals of a page are `QueryError::InternalError` in nearcore's runtime adapter
    // (`from_view_state_error`), checked before the account is looked up.
    for (const refused of [
      { ...base, limit: 7, include_proof: true },
      { ...base, prefix_base64: b64('k1'), after_key_base64: b64('j') },
      { ...base, account_id: 'nobody.test.near', prefix_base64: b64('k1'), after_key_base64: b64('k') },
    ]) {
      const { status, json } = await call('query', refused);
      assert.equal(status, 500);
      assert.equal(json.error.name, 'INTERNAL_ERROR');
      assert.equal(json.error.cause.name, 'INTERNAL_ERROR');
      assert.match(json.error.data, /^The node reached its limits\. Try again later\. More details: /);
      await validates('RpcQueryErrorSchema', json.error.cause);
    }
    // after_key_base64 inside the prefix is a page.
    const inside = await result('query', { ...base, prefix_base64: b64('k1'), after_key_base64: b64('k12') });
    assert.deepEqual(
      inside.values.map((v: Json) => Buffer.from(v.key, 'base64').toString()),
      ['k13', 'k14', 'k15', 'k16', 'k17', 'k18', 'k19'],
    );
  });

  /** The EXPERIMENTAL_ method and its `query` form at a finality and at a block id: the same answer. */
  async function sameAsQuery(method: string, requestType: string, fields: object, schema?: string) {
    const answers = [];
    for (const ref of [{ finality: 'final' }, { block_id: ctx.chain.head.height - 1 }]) {
      const viaQuery = await call('query', { request_type: requestType, ...ref, ...fields });
      const viaMethod = await call(method, { ...ref, ...fields });
      assert.deepEqual(viaMethod.json, viaQuery.json, `${method} at ${JSON.stringify(ref)}`);
      if (schema) await validates(schema, viaMethod.json.result);
      answers.push(viaMethod.json.result);
    }
    return answers;
  }

  test('EXPERIMENTAL_view_* and EXPERIMENTAL_call_function answer as their query forms', async () => {
    const [account] = await sameAsQuery(
      'EXPERIMENTAL_view_account',
      'view_account',
      { account_id: 'hello.test.near' },
      'RpcViewAccountResponseSchema',
    );
    assert.equal(account.amount, AMOUNT);
    await sameAsQuery(
      'EXPERIMENTAL_view_code',
      'view_code',
      { account_id: 'hello.test.near' },
      'RpcViewCodeResponseSchema',
    );
    await sameAsQuery(
      'EXPERIMENTAL_view_state',
      'view_state',
      { account_id: 'hello.test.near', prefix_base64: b64('k1'), limit: 3 },
      'RpcViewStateResponseSchema',
    );
    await sameAsQuery(
      'EXPERIMENTAL_view_access_key',
      'view_access_key',
      { account_id: 'keys.test.near', public_key: keyHolders[3].publicKeyString },
      'RpcViewAccessKeyResponseSchema',
    );
    await sameAsQuery(
      'EXPERIMENTAL_view_access_key_list',
      'view_access_key_list',
      { account_id: 'keys.test.near', limit: 10 },
      'RpcViewAccessKeyListResponseSchema',
    );
    await sameAsQuery(
      'EXPERIMENTAL_view_access_key_list',
      'view_access_key_list',
      { account_id: ctx.root.accountId },
      'RpcViewAccessKeyListResponseSchema',
    );
    const [called] = await sameAsQuery(
      'EXPERIMENTAL_call_function',
      'call_function',
      { account_id: 'hello.test.near', method_name: 'hello', args_base64: b64('{"name":"x"}') },
      'RpcCallFunctionResponseSchema',
    );
    assert.equal(Buffer.from(called.result).toString(), '"hello x"');
    // Errors both forms share: an unknown account.
    for (const method of [
      'EXPERIMENTAL_view_account',
      'EXPERIMENTAL_view_code',
      'EXPERIMENTAL_call_function',
    ]) {
      const e = await error(method, {
        finality: 'final',
        account_id: 'nobody.test.near',
        method_name: 'x',
        args_base64: '',
      });
      assert.equal(e.cause.name, 'UNKNOWN_ACCOUNT');
      assert.equal(e.data, 'account nobody.test.near does not exist while viewing');
    }
  });

  test('what query answers as result.error is a real error of the EXPERIMENTAL_ methods', async () => {
    const at = { block_id: ctx.chain.head.height };
    const missingKey = KeyPair.fromRandom().publicKeyString;
    const legacy = await result('query', {
      request_type: 'view_access_key',
      ...at,
      account_id: 'keys.test.near',
      public_key: missingKey,
    });
    assert.match(legacy.error, /does not exist while viewing$/);
    const e = await error('EXPERIMENTAL_view_access_key', {
      ...at,
      account_id: 'keys.test.near',
      public_key: missingKey,
    });
    assert.equal(e.cause.name, 'UNKNOWN_ACCESS_KEY');
    assert.deepEqual(e.cause.info, {
      public_key: missingKey,
      block_height: legacy.block_height,
      block_hash: legacy.block_hash,
    });
    await validates('RpcViewAccessKeyErrorSchema', e.cause);

    const failed = await error('EXPERIMENTAL_call_function', {
      ...at,
      account_id: 'hello.test.near',
      method_name: 'no_such_method',
      args_base64: '',
    });
    assert.equal(failed.cause.name, 'CONTRACT_EXECUTION_ERROR');
    assert.deepEqual(failed.cause.info.vm_error, { MethodResolveError: 'MethodNotFound' });
    assert.equal(failed.data, 'Function call returned an error: MethodResolveError(MethodNotFound)');
    await validates('RpcCallFunctionErrorSchema', failed.cause);
    const panicked = await error('EXPERIMENTAL_call_function', {
      ...at,
      account_id: 'hello.test.near',
      method_name: 'setValue',
      args_base64: b64('{"value":"v"}'),
    });
    assert.equal(panicked.cause.name, 'CONTRACT_EXECUTION_ERROR');
    await validates('RpcCallFunctionErrorSchema', panicked.cause);

    const unknownBlock = await call('EXPERIMENTAL_view_account', {
      block_id: 1_000_000,
      account_id: 'test.near',
    });
    assert.equal(unknownBlock.json.error.cause.name, 'UNKNOWN_BLOCK');
    assert.deepEqual(unknownBlock.json.error.cause.info, { block_reference: { block_id: 1_000_000 } });
    assert.equal(
      unknownBlock.json.error.data,
      'Block either has never been observed on the node or has been garbage collected: BlockId(Height(1000000))',
    );
    await validates('RpcViewAccountErrorSchema', unknownBlock.json.error.cause);
    // The params are the request struct's: no request_type needed, and a bad one is the struct's error.
    // TOO_MANY_ACCESS_KEYS is not a variant of `RpcViewAccessKeyListError`: its `From<RpcQueryError>` makes it
    // an INTERNAL_ERROR "Unexpected query error: {:?}".
    const tooMany = await call('EXPERIMENTAL_view_access_key_list', { ...at, account_id: 'keys.test.near' });
    assert.equal(tooMany.status, 500);
    assert.deepEqual(tooMany.json.error.cause, {
      name: 'INTERNAL_ERROR',
      info: {
        error_message: `Unexpected query error: TooManyAccessKeys { requested_account_id: AccountId("keys.test.near"), limit: 100, block_height: ${legacy.block_height}, block_hash: ${legacy.block_hash} }`,
      },
    });
    await validates('RpcViewAccessKeyListErrorSchema', tooMany.json.error.cause);
    const bad = await error('EXPERIMENTAL_view_account', null);
    assert.equal(bad.data, 'Failed parsing args: invalid type: null, expected struct RpcViewAccountRequest');
  });

  test('tx_status is EXPERIMENTAL_tx_status; EXPERIMENTAL_receipt_to_tx walks each receipt up to its transaction', async () => {
    const hash = await sendTx('hello.test.near', [
      {
        type: 'FunctionCall',
        methodName: 'setValue',
        args: new TextEncoder().encode('{"value":"hi"}'),
        gas: 30_000_000_000_000n,
        deposit: 0n,
      },
    ]);
    const params = { tx_hash: hash, sender_account_id: ctx.root.accountId, wait_until: 'FINAL' };
    const twin = await call('tx_status', params);
    const experimental = await call('EXPERIMENTAL_tx_status', params);
    assert.deepEqual(twin, experimental);
    const receiptIds = twin.json.result.receipts_outcome.map((o: Json) => o.id);
    assert.ok(receiptIds.length >= 2, 'the call and its refund');
    for (const receiptId of receiptIds) {
      const found = await result('EXPERIMENTAL_receipt_to_tx', { receipt_id: receiptId });
      assert.deepEqual(found, { sender_account_id: ctx.root.accountId, transaction_hash: hash });
      await validates('RpcReceiptToTxResponseSchema', found);
    }
    const missing = await error('EXPERIMENTAL_receipt_to_tx', {
      receipt_id: base58Encode(sha256(new Uint8Array([9]))),
    });
    assert.equal(missing.cause.name, 'UNKNOWN_RECEIPT');
    await validates('RpcReceiptToTxErrorSchema', missing.cause);
    const parse = await error('EXPERIMENTAL_receipt_to_tx', {});
    assert.equal(parse.data, 'Failed parsing args: missing field `receipt_id`');
  });

  test('EXPERIMENTAL_view_gas_key and _list are not 2.14 methods: a gas key is an access key', async () => {
    // nearcore dropped them when gas keys became access-key permissions (#14866 and after): 2.14's
    // QueryRequest has no ViewGasKey(List); view_access_key(_list) show a gas key, view_gas_key_nonces its nonces.
    for (const method of ['EXPERIMENTAL_view_gas_key', 'EXPERIMENTAL_view_gas_key_list']) {
      const { status, json } = await call(method, { finality: 'final', account_id: 'keys.test.near' });
      assert.equal(status, 400);
      assert.deepEqual(json.error.cause, { name: 'METHOD_NOT_FOUND', info: { method_name: method } });
    }
  });

  test('the twins answer what their EXPERIMENTAL names answer', async () => {
    for (const [twin, experimental, params] of [
      [
        'changes',
        'EXPERIMENTAL_changes',
        { finality: 'final', changes_type: 'account_changes', account_ids: ['hello.test.near'] },
      ],
      ['block_effects', 'EXPERIMENTAL_changes_in_block', { finality: 'final' }],
      ['genesis_config', 'EXPERIMENTAL_genesis_config', null],
      ['maintenance_windows', 'EXPERIMENTAL_maintenance_windows', { account_id: 'test.near' }],
    ] as const) {
      assert.deepEqual(await call(twin, params), await call(experimental, params), twin);
    }
  });
});

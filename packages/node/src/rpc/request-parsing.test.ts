/**
 * Request parsing as nearcore's (chain/jsonrpc/src/api/*.rs `RpcRequest::parse`, the request types of
 * chain/jsonrpc-primitives and serde's derive rules, rpc/serde.ts): for every method but the `sandbox_*` controls,
 * what nearcore accepts is accepted and what it refuses is refused with its exact PARSE_ERROR text.
 *
 * The node's request handler is called in process, on an in-memory chain with a few blocks; no server runs.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { base58Encode, KeyPair, sha256 } from '@shadebox/primitives';
import { createInMemoryRpcContext } from './in-memory-context.js';
import { handleJsonRpc } from './jsonrpc.js';
import type { RpcContext } from './rpc-context.js';

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field.
  json: any;
}

describe('request parsing as nearcore', () => {
  let ctx: RpcContext;
  const HASH = base58Encode(sha256(new Uint8Array([7])));
  const KEY = KeyPair.fromRandom().publicKeyString;

  before(() => {
    ctx = createInMemoryRpcContext({ blocks: 7 });
  });

  async function call(method: string, params: unknown): Promise<Answer> {
    const body = JSON.stringify(
      params === undefined ? { jsonrpc: '2.0', id: 1, method } : { jsonrpc: '2.0', id: 1, method, params },
    );
    const answer = await handleJsonRpc(ctx, body);
    return { status: answer.status, json: JSON.parse(answer.body) };
  }

  /** nearcore refuses: PARSE_ERROR with exactly this text, HTTP 400. */
  async function refused(method: string, params: unknown, message: string) {
    const { status, json } = await call(method, params);
    const where = `${method} ${JSON.stringify(params)}`;
    assert.equal(json.error?.cause?.name, 'PARSE_ERROR', `${where}: ${JSON.stringify(json)}`);
    assert.equal(json.error.data, message, where);
    assert.deepEqual(json.error.cause.info, { error_message: message }, where);
    assert.equal(status, 400, where);
  }

  /** nearcore accepts: a result, or a handler error (the request was understood). */
  async function accepted(method: string, params: unknown) {
    const { json } = await call(method, params);
    const where = `${method} ${JSON.stringify(params)}: ${JSON.stringify(json).slice(0, 300)}`;
    assert.notEqual(json.error?.name, 'REQUEST_VALIDATION_ERROR', where);
    return json;
  }

  const args = (m: string) => `Failed parsing args: ${m}`;

  test('block: `[block_id]`, or the params as a BlockReference (externally tagged: one key only)', async () => {
    for (const params of [
      [1],
      [HASH],
      { block_id: 1 },
      { finality: 'final' },
      { sync_checkpoint: 'genesis' },
    ])
      await accepted('block', params);
    assert.equal((await accepted('block', { finality: { final: null } })).result.header.height, 5);
    const single = args('invalid value: map, expected map with a single key');
    // Any second key is refused, a second reference or anything else.
    await refused('block', { block_id: 2, extra: true }, single);
    await refused('block', { finality: 'optimistic', block_id: 1 }, single);
    await refused('block', {}, single);
    await refused(
      'block',
      { blockId: 1 },
      args('unknown variant `blockId`, expected one of `block_id`, `finality`, `sync_checkpoint`'),
    );
    await refused('block', null, args('invalid type: null, expected string or map'));
    await refused('block', undefined, args('invalid type: null, expected string or map'));
    await refused('block', 5, args('invalid type: integer `5`, expected string or map'));
    await refused('block', [], args('invalid type: sequence, expected string or map'));
    await refused('block', [1, 2], args('invalid type: sequence, expected string or map'));
    await refused('block', 'finality', args('invalid type: unit variant, expected newtype variant'));
    await refused(
      'block',
      'final',
      args('unknown variant `final`, expected one of `block_id`, `finality`, `sync_checkpoint`'),
    );
    await refused('block', ['nope'], args('data did not match any variant of untagged enum BlockId'));
    await refused('block', [-1], args('data did not match any variant of untagged enum BlockId'));
    await refused('block', [1.5], args('data did not match any variant of untagged enum BlockId'));
    // A base58 string that is not 32 bytes is no hash.
    await refused('block', ['1111'], args('data did not match any variant of untagged enum BlockId'));
    await refused(
      'block',
      { block_id: null },
      args('data did not match any variant of untagged enum BlockId'),
    );
    await refused(
      'block',
      { finality: 'latest' },
      args('unknown variant `latest`, expected one of `optimistic`, `near-final`, `final`'),
    );
    await refused('block', { finality: 5 }, args('invalid type: integer `5`, expected string or map'));
    await refused('block', { finality: null }, args('invalid type: null, expected string or map'));
    await refused('block', { finality: { final: 1 } }, args('invalid type: integer `1`, expected unit'));
    await refused('block', { finality: {} }, args('invalid value: map, expected map with a single key'));
    await refused(
      'block',
      { sync_checkpoint: 'now' },
      args('unknown variant `now`, expected `genesis` or `earliest_available`'),
    );
  });

  test('a flattened BlockReference (query, changes) takes the first variant key in key order', async () => {
    const q = { request_type: 'view_account', account_id: 'test.near' };
    assert.equal(
      (await accepted('query', { ...q, finality: 'optimistic', block_id: 1 })).result.block_height,
      1,
    );
    assert.equal(
      (await accepted('query', { ...q, sync_checkpoint: 'genesis', finality: 'final' })).result.block_height,
      5,
    );
    // The variant taken is the one whose value is checked; the others are left to the request (and ignored).
    assert.equal(
      (await accepted('query', { ...q, finality: 'nonsense', block_id: 3 })).result.block_height,
      3,
    );
    await refused(
      'query',
      { ...q, finality: 'final', block_id: 'x' },
      args('data did not match any variant of untagged enum BlockId'),
    );
    const changes = { changes_type: 'account_changes', account_ids: ['test.near'] };
    assert.equal(
      (await accepted('EXPERIMENTAL_changes', { ...changes, finality: 'final', block_id: 2 })).result
        .block_hash,
      (await accepted('block', [2])).result.header.hash,
    );
  });

  test('query: RpcQueryRequest (flattened BlockReference + internally tagged QueryRequest)', async () => {
    const at = { finality: 'final' };
    for (const params of [
      { ...at, request_type: 'view_account', account_id: 'test.near' },
      { ...at, request_type: 'view_code', account_id: 'test.near' },
      { ...at, request_type: 'view_state', account_id: 'test.near', prefix_base64: '' },
      { ...at, request_type: 'view_state', account_id: 'test.near', prefix_base64: '', include_proof: true },
      { ...at, request_type: 'view_access_key', account_id: 'test.near', public_key: KEY },
      { ...at, request_type: 'view_access_key_list', account_id: 'test.near' },
      { ...at, request_type: 'call_function', account_id: 'test.near', method_name: 'm', args_base64: '' },
      // Unknown keys are ignored; a variant index names the variant.
      { ...at, request_type: 'view_account', account_id: 'test.near', public_key: 5, extra: null },
      { ...at, request_type: 0, account_id: 'test.near' },
      ['account/test.near', ''],
      ['access_key/test.near', ''],
      [`access_key/test.near/${KEY}`, ''],
      ['contract/test.near', ''],
      ['call/test.near/m', ''],
      ['code/test.near', ''],
    ])
      await accepted('query', params);

    await refused('query', null, args('invalid type: null, expected struct RpcQueryRequest'));
    await refused('query', ['account'], args('invalid type: sequence, expected struct RpcQueryRequest'));
    await refused('query', [1, 2, 3], args('invalid type: sequence, expected struct RpcQueryRequest'));
    await refused('query', at, args('missing field `request_type`'));
    await refused(
      'query',
      { request_type: 'view_account', account_id: 'test.near' },
      args('no variant of enum BlockReference found in flattened data'),
    );
    await refused(
      'query',
      { ...at, request_type: 'view_everything', account_id: 'test.near' },
      args(
        'unknown variant `view_everything`, expected one of `view_account`, `view_code`, `view_state`, ' +
          '`view_access_key`, `view_access_key_list`, `view_gas_key_nonces`, `call_function`, ' +
          '`view_global_contract_code`, `view_global_contract_code_by_account_id`',
      ),
    );
    await refused(
      'query',
      { ...at, request_type: 9 },
      args('invalid value: integer `9`, expected variant index 0 <= i < 9'),
    );
    // Variant 7 is view_global_contract_code (5 is view_gas_key_nonces, 6 call_function).
    await refused('query', { ...at, request_type: 7 }, args('missing field `code_hash`'));
    await refused(
      'query',
      { ...at, request_type: true },
      args('invalid type: boolean `true`, expected variant identifier'),
    );
    await refused('query', { ...at, request_type: 'view_account' }, args('missing field `account_id`'));
    await refused(
      'query',
      { ...at, request_type: 'view_account', account_id: 5 },
      args('invalid type: integer `5`, expected a string'),
    );
    // An invalid account id is refused by near-account-id's deserializer: a parse error, not a handler error.
    await refused(
      'query',
      { ...at, request_type: 'view_account', account_id: 'Not.Valid!' },
      args('invalid value: "Not.Valid!", the Account ID contains an invalid character \'N\' at index 0'),
    );
    await refused(
      'query',
      { ...at, request_type: 'view_account', account_id: 'a' },
      args('invalid value: "a", the Account ID is too short'),
    );
    await refused(
      'query',
      { ...at, request_type: 'view_code', account_id: 'a..b' },
      args('invalid value: "a..b", the Account ID has a redundant separator \'.\' at index 2'),
    );
    await refused(
      'query',
      { ...at, request_type: 'view_state', account_id: 'test.near' },
      args('missing field `prefix_base64`'),
    );
    await refused(
      'query',
      { ...at, request_type: 'view_state', account_id: 'test.near', prefix_base64: '!!' },
      args('Invalid symbol 33, offset 0.'),
    );
    await refused(
      'query',
      { ...at, request_type: 'view_state', account_id: 'test.near', prefix_base64: '', include_proof: 'yes' },
      args('invalid type: string "yes", expected a boolean'),
    );
    await refused(
      'query',
      { ...at, request_type: 'view_access_key', account_id: 'test.near' },
      args('missing field `public_key`'),
    );
    await refused(
      'query',
      { ...at, request_type: 'view_access_key', account_id: 'test.near', public_key: 'rsa:abc' },
      args("unknown key type 'rsa'"),
    );
    await refused(
      'query',
      { ...at, request_type: 'view_access_key', account_id: 'test.near', public_key: 'ed25519:abc' },
      args('invalid key length: expected the input of 32 bytes, but 3 was given'),
    );
    await refused(
      'query',
      { ...at, request_type: 'view_access_key', account_id: 'test.near', public_key: 'ed25519:0OIl' },
      args("invalid key data: provided string contained invalid character '0' at byte 0"),
    );
    await refused(
      'query',
      {
        ...at,
        request_type: 'view_access_key',
        account_id: 'test.near',
        public_key: `ed25519:${'z'.repeat(50)}`,
      },
      args('invalid key length: expected the input of 32 bytes, but 33 was given'),
    );
    await refused(
      'query',
      { ...at, request_type: 'call_function', account_id: 'test.near', args_base64: '' },
      args('missing field `method_name`'),
    );
    await refused(
      'query',
      { ...at, request_type: 'call_function', account_id: 'test.near', method_name: 'm' },
      args('missing field `args_base64`'),
    );
    await refused(
      'query',
      { ...at, request_type: 'call_function', account_id: 'test.near', method_name: 1, args_base64: '' },
      args('invalid type: integer `1`, expected a string'),
    );
    // Fields are read in key order: of two bad fields the first key is the one reported; missing fields are
    // reported after every present one was read.
    await refused(
      'query',
      { ...at, request_type: 'view_access_key', public_key: 'bad:key', account_id: 'BAD' },
      args('invalid value: "BAD", the Account ID contains an invalid character \'B\' at index 0'),
    );
    await refused(
      'query',
      { ...at, request_type: 'call_function', method_name: 5, account_id: 'test.near' },
      args('invalid type: integer `5`, expected a string'),
    );
    await refused(
      'query',
      { ...at, request_type: 'view_access_key', public_key: 'bad:key' },
      args("unknown key type 'bad'"),
    );
    // The block reference is read before the request.
    await refused(
      'query',
      { finality: 'soon', request_type: 'nothing' },
      args('unknown variant `soon`, expected one of `optimistic`, `near-final`, `final`'),
    );
  });

  test('query, legacy `[path, data]`: bare parse errors', async () => {
    await refused('query', ['account', ''], 'Not enough query parameters provided');
    await refused(
      'query',
      ['account/Bad!', ''],
      "the Account ID contains an invalid character 'B' at index 0",
    );
    await refused('query', ['nothing/test.near', ''], 'Unknown path nothing');
    await refused('query', ['call/test.near', ''], 'Method name is missing');
    await refused('query', ['access_key/test.near/not-a-key', ''], 'Invalid public key');
    await refused(
      'query',
      ['contract/test.near', '0OIl'],
      "provided string contained invalid character '0' at byte 0",
    );
    await refused('query', ['contract/test.near', 'z'.repeat(20_000)], 'Query data size is too large');
    await refused('query', [1, ''], args('invalid type: integer `1`, expected a string'));
    await refused('query', ['account/test.near', null], args('invalid type: null, expected a string'));
  });

  test('chunk: `[chunk_id]`, `[[block_id, shard_id]]`, or the params as a ChunkReference (untagged)', async () => {
    const chunkId = (await accepted('block', { block_id: 3 })).result.chunks[0].chunk_hash;
    for (const params of [
      [chunkId],
      [[3, 0]],
      { chunk_id: chunkId },
      { block_id: 3, shard_id: 0 },
      { block_id: 3, shard_id: 0, chunk_id: 5 },
    ])
      assert.equal((await accepted('chunk', params)).result.header.chunk_hash, chunkId);
    const noMatch = args('data did not match any variant of untagged enum ChunkReference');
    for (const params of [{}, { block_id: 1 }, { chunk_id: 'x' }, null, 'x', [], [chunkId, 0], [3, 0]])
      await refused('chunk', params, noMatch);
    await refused('chunk', ['x'], args('invalid length 1, expected base58-encoded 256-bit hash'));
    await refused('chunk', ['0OIl'], args("provided string contained invalid character '0' at byte 0"));
    await refused('chunk', [5], args('invalid type: integer `5`, expected base58-encoded 256-bit hash'));
    await refused('chunk', [[]], args('invalid length 0, expected a tuple of size 2'));
    await refused('chunk', [[3]], args('invalid length 1, expected a tuple of size 2'));
    await refused('chunk', [[3, 0, 1]], args('invalid length 3, expected fewer elements in array'));
    await refused('chunk', [['x', 0]], args('data did not match any variant of untagged enum BlockId'));
    await refused('chunk', [[3, -1]], args('invalid value: integer `-1`, expected u64'));
    await refused('chunk', [[3, 'a']], args('invalid type: string "a", expected u64'));
  });

  test('gas_price: `[block_id | null]` or RpcGasPriceRequest { block_id: MaybeBlockId }', async () => {
    for (const params of [[null], [3], [HASH], {}, { block_id: null }, { block_id: 3 }]) {
      const { json } = await call('gas_price', params);
      assert.ok(json.result || json.error?.name === 'HANDLER_ERROR', JSON.stringify(json));
    }
    await refused('gas_price', null, args('invalid type: null, expected struct RpcGasPriceRequest'));
    await refused('gas_price', undefined, args('invalid type: null, expected struct RpcGasPriceRequest'));
    await refused(
      'gas_price',
      [],
      args('invalid length 0, expected struct RpcGasPriceRequest with 1 element'),
    );
    await refused('gas_price', [null, null], args('invalid length 2, expected fewer elements in array'));
    await refused('gas_price', ['x', null], args('data did not match any variant of untagged enum BlockId'));
    await refused('gas_price', ['nope'], args('data did not match any variant of untagged enum BlockId'));
    await refused(
      'gas_price',
      { block_id: 'nope' },
      args('data did not match any variant of untagged enum BlockId'),
    );
  });

  test('validators: `[block_id | null]`, or the params as an EpochReference (externally tagged)', async () => {
    const epochId = (await accepted('block', { block_id: 3 })).result.header.epoch_id;
    for (const params of [[null], [3], 'latest', { latest: null }, { block_id: 3 }, { epoch_id: epochId }])
      assert.ok((await accepted('validators', params)).result.current_validators);
    assert.equal((await accepted('validators', { block_id: 1 })).result.epoch_start_height, 1);
    const single = args('invalid value: map, expected map with a single key');
    await refused('validators', {}, single);
    await refused('validators', { latest: null, block_id: 1 }, single);
    await refused('validators', null, args('invalid type: null, expected string or map'));
    await refused('validators', undefined, args('invalid type: null, expected string or map'));
    await refused('validators', [], args('invalid type: sequence, expected string or map'));
    await refused(
      'validators',
      'oldest',
      args('unknown variant `oldest`, expected one of `epoch_id`, `block_id`, `latest`'),
    );
    await refused('validators', 'block_id', args('invalid type: unit variant, expected newtype variant'));
    await refused('validators', { latest: true }, args('invalid type: boolean `true`, expected unit'));
    await refused(
      'validators',
      { epoch_id: 'x' },
      args('invalid length 1, expected base58-encoded 256-bit hash'),
    );
    await refused(
      'validators',
      { block_id: 'x' },
      args('data did not match any variant of untagged enum BlockId'),
    );
    await refused('validators', ['x'], args('data did not match any variant of untagged enum BlockId'));
  });

  test('EXPERIMENTAL_protocol_config (the params as a BlockReference) and EXPERIMENTAL_receipt (ReceiptReference)', async () => {
    await accepted('EXPERIMENTAL_protocol_config', { finality: 'final' });
    await accepted('EXPERIMENTAL_protocol_config', { block_id: 1 });
    await refused(
      'EXPERIMENTAL_protocol_config',
      { block_id: 1, extra: 1 },
      args('invalid value: map, expected map with a single key'),
    );
    await refused('EXPERIMENTAL_protocol_config', null, args('invalid type: null, expected string or map'));
    await refused(
      'EXPERIMENTAL_protocol_config',
      {},
      args('invalid value: map, expected map with a single key'),
    );

    assert.equal(
      (await accepted('EXPERIMENTAL_receipt', { receipt_id: HASH })).error.cause.name,
      'UNKNOWN_RECEIPT',
    );
    // A plain struct: an array by position is one too.
    assert.equal((await accepted('EXPERIMENTAL_receipt', [HASH])).error.cause.name, 'UNKNOWN_RECEIPT');
    await refused('EXPERIMENTAL_receipt', {}, args('missing field `receipt_id`'));
    await refused(
      'EXPERIMENTAL_receipt',
      [],
      args('invalid length 0, expected struct ReceiptReference with 1 element'),
    );
    await refused(
      'EXPERIMENTAL_receipt',
      [HASH, 1],
      args('invalid length 2, expected fewer elements in array'),
    );
    await refused('EXPERIMENTAL_receipt', null, args('invalid type: null, expected struct ReceiptReference'));
    await refused(
      'EXPERIMENTAL_receipt',
      { receipt_id: 'abc' },
      args('invalid length 3, expected base58-encoded 256-bit hash'),
    );
    await refused(
      'EXPERIMENTAL_receipt',
      { receipt_id: 7 },
      args('invalid type: integer `7`, expected base58-encoded 256-bit hash'),
    );
  });

  test('methods that take no params ignore whatever is sent (nearcore parses them as `()`)', async () => {
    for (const method of [
      'status',
      'health',
      'network_info',
      'EXPERIMENTAL_genesis_config',
      'genesis_config',
    ])
      for (const params of [undefined, null, [], {}, 'x', [1, 2], { anything: true }])
        await accepted(method, params);
  });

  test('changes: RpcStateChangesInBlockByTypeRequest and RpcStateChangesInBlockRequest', async () => {
    const at = { block_id: 3 };
    for (const params of [
      { ...at, changes_type: 'account_changes', account_ids: ['test.near'] },
      { ...at, changes_type: 'all_access_key_changes', account_ids: [] },
      { ...at, changes_type: 'contract_code_changes', account_ids: ['test.near'] },
      { ...at, changes_type: 'data_changes', account_ids: ['test.near'], key_prefix_base64: '' },
      {
        ...at,
        changes_type: 'single_access_key_changes',
        keys: [{ account_id: 'test.near', public_key: KEY }],
      },
      // `AccountWithPublicKey` is a plain struct: an array by position is one too.
      { ...at, changes_type: 'single_access_key_changes', keys: [['test.near', KEY]] },
    ]) {
      await accepted('EXPERIMENTAL_changes', params);
      await accepted('changes', params);
    }
    await accepted('EXPERIMENTAL_changes_in_block', at);
    await accepted('block_effects', { finality: 'final', extra: 1 });
    await refused('EXPERIMENTAL_changes', at, args('missing field `changes_type`'));
    await refused(
      'EXPERIMENTAL_changes',
      null,
      args('invalid type: null, expected struct RpcStateChangesInBlockByTypeRequest'),
    );
    await refused(
      'EXPERIMENTAL_changes_in_block',
      [1],
      args('invalid type: sequence, expected struct RpcStateChangesInBlockRequest'),
    );
    await refused('block_effects', {}, args('no variant of enum BlockReference found in flattened data'));
    await refused(
      'EXPERIMENTAL_changes',
      { ...at, changes_type: 'everything' },
      args(
        'unknown variant `everything`, expected one of `account_changes`, `single_access_key_changes`, ' +
          '`all_access_key_changes`, `contract_code_changes`, `data_changes`',
      ),
    );
    await refused(
      'EXPERIMENTAL_changes',
      { ...at, changes_type: 'account_changes' },
      args('missing field `account_ids`'),
    );
    await refused(
      'EXPERIMENTAL_changes',
      { ...at, changes_type: 'account_changes', account_ids: 'test.near' },
      args('invalid type: string "test.near", expected a sequence'),
    );
    await refused(
      'EXPERIMENTAL_changes',
      { ...at, changes_type: 'account_changes', account_ids: ['ok.near', 'NO'] },
      args('invalid value: "NO", the Account ID contains an invalid character \'N\' at index 0'),
    );
    await refused(
      'EXPERIMENTAL_changes',
      { ...at, changes_type: 'data_changes', account_ids: [] },
      args('missing field `key_prefix_base64`'),
    );
    await refused(
      'EXPERIMENTAL_changes',
      { ...at, changes_type: 'data_changes', account_ids: [], key_prefix_base64: '*' },
      args('Invalid symbol 42, offset 0.'),
    );
    await refused(
      'EXPERIMENTAL_changes',
      { ...at, changes_type: 'single_access_key_changes', keys: [5] },
      args('invalid type: integer `5`, expected struct AccountWithPublicKey'),
    );
    await refused(
      'EXPERIMENTAL_changes',
      { ...at, changes_type: 'single_access_key_changes', keys: [{ account_id: 'test.near' }] },
      args('missing field `public_key`'),
    );
    await refused(
      'EXPERIMENTAL_changes',
      { ...at, changes_type: 'single_access_key_changes', keys: [['test.near']] },
      args('invalid length 1, expected struct AccountWithPublicKey with 2 elements'),
    );
  });

  test('send_tx / broadcast_tx_*: `[base64]` or RpcSendTransactionRequest; tx: pairs, or RpcTransactionStatusRequest', async () => {
    for (const method of ['send_tx', 'broadcast_tx_async', 'broadcast_tx_commit']) {
      await refused(method, null, args('invalid type: null, expected struct RpcSendTransactionRequest'));
      await refused(
        method,
        [],
        args('invalid length 0, expected struct RpcSendTransactionRequest with 2 elements'),
      );
      await refused(method, {}, args('missing field `signed_tx_base64`'));
      await refused(method, { signed_tx_base64: 5 }, args('invalid type: integer `5`, expected a string'));
      await refused(method, ['AAAA'], 'Failed to decode transaction: Unexpected length of input');
      await refused(method, ['a', 'b'], 'Unable to parse send request: too many params passed');
    }
    // The transaction is read (and decoded) before `wait_until`: key order.
    await refused(
      'send_tx',
      { signed_tx_base64: '!!!!', wait_until: 'SOON' },
      args('Invalid symbol 33, offset 0.'),
    );
    await refused(
      'send_tx',
      { signed_tx_base64: 'AAAA', wait_until: null },
      args('Unexpected length of input'),
    );

    await refused('tx', null, args('invalid type: null, expected struct RpcTransactionStatusRequest'));
    await refused(
      'tx',
      [HASH, 'Bad!'],
      args('invalid value: "Bad!", the Account ID contains an invalid character \'B\' at index 0'),
    );
    await refused('tx', ['abc', 'test.near'], args('invalid length 3, expected base58-encoded 256-bit hash'));
    await refused(
      'tx',
      [5, 'test.near'],
      args('invalid type: integer `5`, expected base58-encoded 256-bit hash'),
    );
    await refused('tx', {}, args('data did not match any variant of untagged enum TransactionInfo'));
    await refused(
      'tx',
      { tx_hash: HASH, sender_account_id: 'test.near', wait_until: null },
      args('invalid type: null, expected string or map'),
    );
    const unknown = await call('tx', { tx_hash: HASH, sender_account_id: 'test.near', wait_until: 'NONE' });
    assert.equal(unknown.json.error.cause.name, 'UNKNOWN_TRANSACTION');
  });
});

/**
 * Every view is built with its fields in nearcore's declaration order (core/primitives/src/views.rs and the RPC
 * types of chain/jsonrpc-primitives), so whatever writes a view field by field — the typed `GET /status` and
 * `GET /network_info` handlers, files, in-process callers — writes nearcore's order. (JSON-RPC results are
 * written with sorted keys, as nearcore's `serde_json::Value` writes them: tested in chain/json.test.ts and the
 * RPC tests.)
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import {
  accessKeyToView,
  actionToView,
  base58Encode,
  delegateActionToView,
  KeyPair,
  parsePublicKey,
  receiptToView,
  sha256,
  signedTransactionToView,
} from '@shadebox/primitives';
import { blockHeaderView, chunkHeaderView } from '../chain/block-views.js';
import { outcomeView } from '../chain/outcome-views.js';
import { accountToView, newAccount } from '../state/account.js';
import { createInMemoryRpcContext } from './in-memory-context.js';
import { gasPrice } from './methods/gas-price.js';
import { networkInfo, status, validators } from './methods/node-info.js';
import { query } from './methods/query.js';
import type { RpcContext } from './rpc-context.js';

const keys = (v: unknown) => Object.keys(v as object);
const HASH = base58Encode(sha256(new Uint8Array([1])));

const STAKE_VIEW = ['validator_stake_struct_version', 'account_id', 'public_key', 'stake'];

describe('views in nearcore field order', () => {
  let ctx: RpcContext;
  const key = KeyPair.fromRandom();
  const publicKey = parsePublicKey(key.publicKeyString);

  before(() => {
    ctx = createInMemoryRpcContext({ blocks: 3 });
  });

  test('StatusResponse, StatusSyncInfo, Version (GET /status writes them in this order)', () => {
    const s = status(ctx);
    assert.deepEqual(keys(s), [
      'version',
      'chain_id',
      'protocol_version',
      'latest_protocol_version',
      'rpc_addr',
      'validators',
      'sync_info',
      'validator_account_id',
      'validator_public_key',
      'node_public_key',
      'node_key',
      'uptime_sec',
      'genesis_hash',
    ]);
    assert.deepEqual(keys(s.version), ['version', 'build', 'commit', 'rustc_version']);
    assert.deepEqual(keys(s.sync_info), [
      'latest_block_hash',
      'latest_block_height',
      'latest_state_root',
      'latest_block_time',
      'syncing',
      'earliest_block_hash',
      'earliest_block_height',
      'earliest_block_time',
      'epoch_id',
      'epoch_start_height',
    ]);
    assert.deepEqual(keys(s.validators[0]), ['account_id']);
  });

  test('EpochValidatorInfo, CurrentEpochValidatorInfo, NextEpochValidatorInfo', () => {
    const v = validators(ctx, [null]);
    assert.deepEqual(keys(v), [
      'current_validators',
      'next_validators',
      'current_fishermen',
      'next_fishermen',
      'current_proposals',
      'prev_epoch_kickout',
      'epoch_start_height',
      'epoch_height',
    ]);
    assert.deepEqual(keys(v.current_validators[0]), [
      'account_id',
      'public_key',
      'is_slashed',
      'stake',
      'shards',
      'num_produced_blocks',
      'num_expected_blocks',
      'num_produced_chunks',
      'num_expected_chunks',
      'num_produced_chunks_per_shard',
      'num_expected_chunks_per_shard',
      'num_produced_endorsements',
      'num_expected_endorsements',
      'num_produced_endorsements_per_shard',
      'num_expected_endorsements_per_shard',
      'shards_endorsed',
    ]);
    assert.deepEqual(keys(v.next_validators[0]), ['account_id', 'public_key', 'stake', 'shards']);
  });

  test('RpcNetworkInfoResponse and RpcKnownProducer (GET /network_info writes them in this order)', () => {
    const n = networkInfo(ctx);
    assert.deepEqual(keys(n), [
      'active_peers',
      'num_active_peers',
      'peer_max_count',
      'sent_bytes_per_sec',
      'received_bytes_per_sec',
      'known_producers',
    ]);
    assert.deepEqual(keys(n.known_producers[0]), ['account_id', 'addr', 'peer_id']);
  });

  test('GasPriceView', () => {
    assert.deepEqual(keys(gasPrice(ctx, [null])), ['gas_price']);
  });

  test('query: the view (flattened) first, then block_height and block_hash', () => {
    const at = { finality: 'final', account_id: 'test.near' };
    const q = (params: Record<string, unknown>) =>
      query(ctx, { ...at, ...params }) as Record<string, unknown>;
    assert.deepEqual(keys(q({ request_type: 'view_account' })), [
      'amount',
      'locked',
      'code_hash',
      'storage_usage',
      'storage_paid_at',
      'block_height',
      'block_hash',
    ]);
    const list = q({ request_type: 'view_access_key_list' });
    assert.deepEqual(keys(list), ['keys', 'block_height', 'block_hash']);
    const [first] = list.keys as Array<{ public_key: string; access_key: unknown }>;
    assert.deepEqual(keys(first), ['public_key', 'access_key']);
    assert.deepEqual(keys(first.access_key), ['nonce', 'permission']);
    assert.deepEqual(keys(q({ request_type: 'view_access_key', public_key: first.public_key })), [
      'nonce',
      'permission',
      'block_height',
      'block_hash',
    ]);
    assert.deepEqual(keys(q({ request_type: 'view_state', prefix_base64: '' })), [
      'values',
      'block_height',
      'block_hash',
    ]);
    assert.deepEqual(
      keys(q({ request_type: 'call_function', method_name: 'm', args_base64: '' })),
      ['error', 'logs', 'block_height', 'block_hash'],
      'QueryError',
    );
  });

  test('AccountView, AccessKeyView, AccessKeyPermissionView::FunctionCall', () => {
    assert.deepEqual(keys(accountToView(newAccount(5n))), [
      'amount',
      'locked',
      'code_hash',
      'storage_usage',
      'storage_paid_at',
    ]);
    const view = accessKeyToView({
      nonce: 1n,
      permission: { kind: 'FunctionCall', allowance: 10n, receiverId: 'c.near', methodNames: ['m'] },
    });
    assert.deepEqual(keys(view), ['nonce', 'permission']);
    const permission = view.permission as { FunctionCall: object };
    assert.deepEqual(keys(permission.FunctionCall), ['allowance', 'receiver_id', 'method_names']);
  });

  test('ActionView (every variant), DelegateAction, SignedTransactionView', () => {
    const accessKey = { nonce: 0n, permission: { kind: 'FullAccess' as const } };
    const cases: Array<[Parameters<typeof actionToView>[0], string[]]> = [
      [{ type: 'DeployContract', code: new Uint8Array([0]) }, ['code']],
      [
        { type: 'FunctionCall', methodName: 'm', args: new Uint8Array(), gas: 1n, deposit: 0n },
        ['method_name', 'args', 'gas', 'deposit'],
      ],
      [{ type: 'Transfer', deposit: 1n }, ['deposit']],
      [{ type: 'Stake', stake: 1n, publicKey }, ['stake', 'public_key']],
      [{ type: 'AddKey', publicKey, accessKey }, ['public_key', 'access_key']],
      [{ type: 'DeleteKey', publicKey }, ['public_key']],
      [{ type: 'DeleteAccount', beneficiaryId: 'b.near' }, ['beneficiary_id']],
    ];
    for (const [action, fields] of cases) {
      const view = actionToView(action) as Record<string, object>;
      assert.deepEqual(keys(view[action.type]), fields, action.type);
    }
    const delegateAction = {
      senderId: 's.near',
      receiverId: 'r.near',
      actions: [],
      nonce: 1n,
      maxBlockHeight: 10n,
      publicKey,
    };
    assert.deepEqual(keys(delegateActionToView(delegateAction)), [
      'sender_id',
      'receiver_id',
      'actions',
      'nonce',
      'max_block_height',
      'public_key',
    ]);
    const delegate = actionToView({
      type: 'Delegate',
      signedDelegateAction: { delegateAction, signature: key.sign(new Uint8Array(32)) },
    }) as { Delegate: object };
    assert.deepEqual(keys(delegate.Delegate), ['delegate_action', 'signature']);
    const tx = signedTransactionToView(
      {
        transaction: {
          version: 0,
          signerId: 's.near',
          publicKey,
          nonce: 1n,
          receiverId: 'r.near',
          blockHash: new Uint8Array(32),
          actions: [],
        },
        signature: key.sign(new Uint8Array(32)),
      } as unknown as Parameters<typeof signedTransactionToView>[0],
      HASH,
    );
    assert.deepEqual(keys(tx), [
      'signer_id',
      'public_key',
      'nonce',
      'receiver_id',
      'actions',
      'priority_fee',
      'signature',
      'hash',
    ]);
  });

  test('ReceiptView, ReceiptEnumView::Action / ::Data, DataReceiverView', () => {
    const common = {
      predecessorId: 'p.near',
      receiverId: 'r.near',
      receiptId: new Uint8Array(32),
      priority: 0n,
      version: 1,
    };
    const action = receiptToView({
      ...common,
      receipt: {
        kind: 'Action',
        signerId: 's.near',
        signerPublicKey: publicKey,
        gasPrice: 1n,
        outputDataReceivers: [{ dataId: new Uint8Array(32), receiverId: 'd.near' }],
        inputDataIds: [],
        actions: [],
        isPromiseYield: false,
      },
    } as unknown as Parameters<typeof receiptToView>[0]);
    assert.deepEqual(keys(action), ['predecessor_id', 'receiver_id', 'receipt_id', 'receipt', 'priority']);
    const body = (action.receipt as { Action: { output_data_receivers: object[] } }).Action;
    assert.deepEqual(keys(body), [
      'signer_id',
      'signer_public_key',
      'gas_price',
      'output_data_receivers',
      'input_data_ids',
      'actions',
      'is_promise_yield',
    ]);
    assert.deepEqual(keys(body.output_data_receivers[0]), ['data_id', 'receiver_id']);
    const data = receiptToView({
      ...common,
      receipt: { kind: 'Data', dataId: new Uint8Array(32), data: null, isPromiseResume: false },
    } as unknown as Parameters<typeof receiptToView>[0]);
    assert.deepEqual(keys((data.receipt as { Data: object }).Data), ['data_id', 'data', 'is_promise_resume']);
  });

  test('BlockHeaderView, ChunkHeaderView, ValidatorStakeView (tag first)', () => {
    const proposal = { account_id: 'v.near', public_key: key.publicKeyString, stake: '1' };
    const chunk = chunkHeaderView(
      {
        prevBlockHash: HASH,
        prevStateRoot: HASH,
        outcomeRoot: HASH,
        encodedMerkleRoot: HASH,
        encodedLength: 0,
        heightCreated: 1,
        shardId: 0,
        gasUsed: 0n,
        gasLimit: 1n,
        balanceBurnt: 0n,
        outgoingReceiptsRoot: HASH,
        txRoot: HASH,
        validatorProposals: [proposal],
      },
      HASH,
      1,
      'ed25519:sig',
    );
    assert.deepEqual(keys(chunk), [
      'chunk_hash',
      'prev_block_hash',
      'outcome_root',
      'prev_state_root',
      'encoded_merkle_root',
      'encoded_length',
      'height_created',
      'height_included',
      'shard_id',
      'gas_used',
      'gas_limit',
      'rent_paid',
      'validator_reward',
      'balance_burnt',
      'outgoing_receipts_root',
      'tx_root',
      'validator_proposals',
      'congestion_info',
      'bandwidth_requests',
      'signature',
    ]);
    assert.deepEqual(keys(chunk.validator_proposals[0]), STAKE_VIEW);
    assert.deepEqual(keys(chunk.congestion_info), [
      'delayed_receipts_gas',
      'buffered_receipts_gas',
      'receipt_bytes',
      'allowed_shard',
    ]);
    const header = blockHeaderView(
      {
        height: 2,
        prevHeight: 1,
        epochId: HASH,
        nextEpochId: HASH,
        prevHash: HASH,
        prevStateRoot: HASH,
        blockBodyHash: HASH,
        chunkReceiptsRoot: HASH,
        chunkHeadersRoot: HASH,
        chunkTxRoot: HASH,
        outcomeRoot: HASH,
        chunksIncluded: 1,
        timestampNs: 1n,
        randomValue: HASH,
        validatorProposals: [proposal],
        chunkMask: [true],
        gasPrice: 1n,
        blockOrdinal: 2,
        totalSupply: 1n,
        lastFinalBlock: HASH,
        lastDsFinalBlock: HASH,
        nextBpHash: HASH,
        blockMerkleRoot: HASH,
        approvals: [null],
        latestProtocolVersion: 85,
        chunkEndorsements: [[1]],
      },
      HASH,
      'ed25519:sig',
    );
    assert.deepEqual(keys(header), [
      'height',
      'prev_height',
      'epoch_id',
      'next_epoch_id',
      'hash',
      'prev_hash',
      'prev_state_root',
      'block_body_hash',
      'chunk_receipts_root',
      'chunk_headers_root',
      'chunk_tx_root',
      'outcome_root',
      'chunks_included',
      'challenges_root',
      'timestamp',
      'timestamp_nanosec',
      'random_value',
      'validator_proposals',
      'chunk_mask',
      'gas_price',
      'block_ordinal',
      'rent_paid',
      'validator_reward',
      'total_supply',
      'challenges_result',
      'last_final_block',
      'last_ds_final_block',
      'next_bp_hash',
      'block_merkle_root',
      'epoch_sync_data_hash',
      'approvals',
      'signature',
      'latest_protocol_version',
      'chunk_endorsements',
    ]);
    assert.deepEqual(keys(header.validator_proposals[0]), STAKE_VIEW);
  });

  test('ExecutionOutcomeWithIdView, ExecutionOutcomeView, ExecutionMetadataView, MerklePathItem', () => {
    const view = outcomeView(
      {
        id: new Uint8Array(32),
        executorId: 'e.near',
        gasBurnt: 1n,
        tokensBurnt: 1n,
        logs: [],
        receiptIds: [],
        status: { SuccessValue: '' },
      } as unknown as Parameters<typeof outcomeView>[0],
      HASH,
      [{ hash: new Uint8Array(32), direction: 'Left' }],
    );
    assert.deepEqual(keys(view), ['proof', 'block_hash', 'id', 'outcome']);
    assert.deepEqual(keys(view.proof[0]), ['hash', 'direction']);
    assert.deepEqual(keys(view.outcome), [
      'logs',
      'receipt_ids',
      'gas_burnt',
      'tokens_burnt',
      'executor_id',
      'status',
      'metadata',
    ]);
    assert.deepEqual(keys(view.outcome.metadata), ['version', 'gas_profile']);
  });
});

/**
 * State changes of a block:
 * - `changes` / `EXPERIMENTAL_changes` with `changes_type` (`account_changes`, `single_access_key_changes`,
 *   `all_access_key_changes`, `contract_code_changes`, `data_changes`) plus a block reference: every change of
 *   the requested accounts or keys, each with its cause (chain/state-change-views.ts);
 * - `EXPERIMENTAL_changes_in_block` / `block_effects`, and `changes` without `changes_type`: the kinds of change
 *   per account (`account_touched`, `access_key_touched`, `data_touched`, `contract_code_touched`).
 *
 * As nearcore's `RpcStateChangesError`, a handler error's `data` is the serialized error object itself.
 * One deliberate addition (docs/deviations.md): more than `MAX_CHANGES_INPUTS` accounts or keys in one request
 * is refused with `TOO_MANY_INPUTS`; nearcore has no cap.
 */
import { type PublicKey, parsePublicKey } from '@shadebox/primitives';
import type { BlockRecord } from '../../chain/records.js';
import {
  BlockStateChanges,
  type StateChangesRequest,
  type StoredStateChange,
} from '../../chain/state-change-views.js';
import { parseBlockReference, resolveBlock, takeBlockReference } from '../block-reference.js';
import { failParse, typeName } from '../params.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError } from '../rpc-error.js';
import { readAccountId, readFields, readPublicKey, readStruct, structEntries, takeTag } from '../serde.js';
import { readBase64 } from './query-request.js';

/** Accounts (or keys) one typed request may name. */
export const MAX_CHANGES_INPUTS = 1000;

const CHANGES_TYPES = [
  'account_changes',
  'single_access_key_changes',
  'all_access_key_changes',
  'contract_code_changes',
  'data_changes',
] as const;

const BY_TYPE = 'RpcStateChangesInBlockByTypeRequest';

/** `EXPERIMENTAL_changes`: the typed form only (nearcore: "missing field `changes_type`" without it). */
export function experimentalChanges(ctx: RpcContext, params: unknown) {
  return changesByType(ctx, structEntries(params, BY_TYPE));
}

/** `changes`: the typed form, or the block-level form when `changes_type` is absent. */
export function changes(ctx: RpcContext, params: unknown) {
  const entries = structEntries(params, BY_TYPE);
  return entries.some(([key]) => key === 'changes_type')
    ? changesByType(ctx, entries)
    : changesInBlock(ctx, params);
}

/** `EXPERIMENTAL_changes_in_block` / `block_effects`. */
export function changesInBlock(ctx: RpcContext, params: unknown) {
  const block = resolveBlock(ctx.chain, parseBlockReference(params, 'RpcStateChangesInBlockRequest'));
  if (!block) throw stateChangesError('UNKNOWN_BLOCK', {});
  return { block_hash: block.hash, changes: blockChanges(ctx, block).kinds() };
}

function changesByType(ctx: RpcContext, entries: Array<[string, unknown]>) {
  // nearcore's request flattens the block reference first, then the tagged `StateChangesRequestView`.
  const ref = takeBlockReference(entries);
  const request = parseRequest(entries);
  const count = 'keys' in request ? request.keys.length : request.accountIds.length;
  if (count > MAX_CHANGES_INPUTS)
    throw stateChangesError('TOO_MANY_INPUTS', { limit: MAX_CHANGES_INPUTS, count });
  const block = resolveBlock(ctx.chain, ref);
  if (!block) throw stateChangesError('UNKNOWN_BLOCK', {});
  return { block_hash: block.hash, changes: blockChanges(ctx, block).byType(request) };
}

/** The genesis block records no changes (nearcore does not apply genesis as a chunk): an empty list. */
function blockChanges(ctx: RpcContext, block: BlockRecord): BlockStateChanges {
  const stored: StoredStateChange[] = ctx.chain.stateChanges(block.height) ?? [];
  return new BlockStateChanges(stored);
}

/** `RpcStateChangesError` → RpcResponseError: cause and `data` are both the serialized error (`{name, info}`). */
function stateChangesError(name: string, info: Record<string, unknown>) {
  return handlerError(name, info, { name, info });
}

/** `StateChangesRequestView`, internally tagged by `changes_type`; its fields read in key order. */
function parseRequest(entries: Array<[string, unknown]>): StateChangesRequest {
  const type = takeTag(entries, 'changes_type', CHANGES_TYPES);
  switch (type) {
    case 'account_changes':
    case 'all_access_key_changes':
    case 'contract_code_changes': {
      const { account_ids } = readFields(entries, { account_ids: { read: accountIds } });
      return { changesType: type, accountIds: account_ids };
    }
    case 'data_changes': {
      const f = readFields(entries, {
        account_ids: { read: accountIds },
        key_prefix_base64: { read: readBase64 },
      });
      return { changesType: 'data_changes', accountIds: f.account_ids, keyPrefix: f.key_prefix_base64 };
    }
    case 'single_access_key_changes': {
      const { keys } = readFields(entries, { keys: { read: (v) => readSeq(v).map(accountWithPublicKey) } });
      return { changesType: 'single_access_key_changes', keys };
    }
  }
}

/** A `Vec<_>`: a JSON array. */
function readSeq(value: unknown): unknown[] {
  if (!Array.isArray(value)) failParse(`invalid type: ${typeName(value)}, expected a sequence`);
  return value;
}

function accountIds(value: unknown): string[] {
  return readSeq(value).map(readAccountId);
}

/** `AccountWithPublicKey { account_id, public_key }`, a plain struct (an object, or an array by position). */
function accountWithPublicKey(item: unknown): { accountId: string; publicKey: PublicKey } {
  const k = readStruct(item, 'AccountWithPublicKey', {
    account_id: { read: readAccountId },
    public_key: { read: readPublicKey },
  });
  return { accountId: k.account_id, publicKey: parsePublicKey(k.public_key) };
}

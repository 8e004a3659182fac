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
import { accountIdError, base64Decode, type PublicKey, parsePublicKey } from '@shadebox/primitives';
import type { BlockRecord } from '../../chain/records.js';
import {
  BlockStateChanges,
  type StateChangesRequest,
  type StoredStateChange,
} from '../../chain/state-change-views.js';
import { parseBlockReference, resolveBlock, unknownVariant } from '../block-reference.js';
import { failParse, objectParams, type Params, requireArray, requireString, typeName } from '../params.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError } from '../rpc-error.js';
import { parseAccountErrorText } from './query.js';

/** Accounts (or keys) one typed request may name. */
export const MAX_CHANGES_INPUTS = 1000;

const CHANGES_TYPES = [
  'account_changes',
  'single_access_key_changes',
  'all_access_key_changes',
  'contract_code_changes',
  'data_changes',
] as const;

/** `EXPERIMENTAL_changes`: the typed form only (nearcore: "missing field `changes_type`" without it). */
export function experimentalChanges(ctx: RpcContext, params: unknown) {
  return changesByType(ctx, objectParams(params));
}

/** `changes`: the typed form, or the block-level form when `changes_type` is absent. */
export function changes(ctx: RpcContext, params: unknown) {
  const p = objectParams(params);
  return p.changes_type === undefined ? changesInBlock(ctx, p) : changesByType(ctx, p);
}

/** `EXPERIMENTAL_changes_in_block` / `block_effects`. */
export function changesInBlock(ctx: RpcContext, params: unknown) {
  const block = blockOf(ctx, objectParams(params));
  return { block_hash: block.hash, changes: blockChanges(ctx, block).kinds() };
}

function changesByType(ctx: RpcContext, p: Params) {
  // nearcore's request flattens the block reference first, then the tagged `StateChangesRequestView`.
  const ref = parseBlockReference(p)!;
  const request = parseRequest(p);
  const count = 'keys' in request ? request.keys.length : request.accountIds.length;
  if (count > MAX_CHANGES_INPUTS)
    throw stateChangesError('TOO_MANY_INPUTS', { limit: MAX_CHANGES_INPUTS, count });
  const block = resolveBlock(ctx.chain, ref);
  if (!block) throw stateChangesError('UNKNOWN_BLOCK', {});
  return { block_hash: block.hash, changes: blockChanges(ctx, block).byType(request) };
}

function blockOf(ctx: RpcContext, p: Params): BlockRecord {
  const block = resolveBlock(ctx.chain, parseBlockReference(p)!);
  if (!block) throw stateChangesError('UNKNOWN_BLOCK', {});
  return block;
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

function parseRequest(p: Params): StateChangesRequest {
  const type = p.changes_type;
  if (type === undefined) failParse('missing field `changes_type`');
  if (typeof type !== 'string' || !(CHANGES_TYPES as readonly string[]).includes(type))
    unknownVariant(type, CHANGES_TYPES);
  switch (type as (typeof CHANGES_TYPES)[number]) {
    case 'account_changes':
      return { changesType: 'account_changes', accountIds: accountIds(p) };
    case 'all_access_key_changes':
      return { changesType: 'all_access_key_changes', accountIds: accountIds(p) };
    case 'contract_code_changes':
      return { changesType: 'contract_code_changes', accountIds: accountIds(p) };
    case 'data_changes': {
      const ids = accountIds(p);
      const prefix = requireString(p, 'key_prefix_base64');
      let keyPrefix: Uint8Array;
      try {
        keyPrefix = base64Decode(prefix);
      } catch {
        failParse(`invalid value: ${typeName(prefix)} for \`key_prefix_base64\`, expected base64`);
      }
      return { changesType: 'data_changes', accountIds: ids, keyPrefix };
    }
    case 'single_access_key_changes': {
      const keys = requireArray(p, 'keys').map((item) => {
        if (item === null || typeof item !== 'object' || Array.isArray(item))
          failParse(`invalid type: ${typeName(item)}, expected struct AccountWithPublicKey`);
        const k = item as Params;
        return { accountId: accountId(requireString(k, 'account_id')), publicKey: publicKey(k) };
      });
      return { changesType: 'single_access_key_changes', keys };
    }
  }
}

function accountIds(p: Params): string[] {
  return requireArray(p, 'account_ids').map((item) => {
    if (typeof item !== 'string') failParse(`invalid type: ${typeName(item)}, expected a string`);
    return accountId(item);
  });
}

/** near-account-id's deserializer: `invalid value: "<id>", <ParseAccountError>`. */
function accountId(id: string): string {
  const reason = accountIdError(id);
  if (reason !== null)
    failParse(`invalid value: ${JSON.stringify(id)}, ${parseAccountErrorText(id, reason)}`);
  return id;
}

function publicKey(k: Params): PublicKey {
  const text = requireString(k, 'public_key');
  try {
    return parsePublicKey(text);
  } catch (e) {
    failParse(`invalid value: ${typeName(text)}: ${(e as Error).message}`);
  }
}

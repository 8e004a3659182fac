/**
 * The `sandbox_*` developer methods (docs/dev-controls.md): nearcore's `sandbox_patch_state` and
 * `sandbox_fast_forward`, plus snapshot / revert, produce blocks now and set the next block's timestamp
 * (chain/dev-controls.ts). Malformed params are PARSE_ERROR; refusals are HANDLER_ERROR with a named cause.
 */

import type { BlockProducer } from '../../chain/block-producer.js';
import { DevControls, DevControlsError, MAX_BLOCKS_PER_CALL } from '../../chain/dev-controls.js';
import { parseStatePatch, StatePatchError } from '../../chain/patch-state.js';
import type { BlockRecord } from '../../chain/records.js';
import { getAccount } from '../../state/typed-state.js';
import {
  failParse,
  objectParams,
  type Params,
  rejectUnknownFields,
  requireArray,
  typeName,
} from '../params.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError } from '../rpc-error.js';

const U64_MAX = (1n << 64n) - 1n;

/** One DevControls per block producer, shared by a node's endpoints (the regular one and the archival one,
 * whose `ctx.chain` is a read view of the same chain): they act on the producer's chain. */
const controls = new WeakMap<BlockProducer, DevControls>();

export function devControls(ctx: RpcContext): DevControls {
  let c = controls.get(ctx.producer);
  if (!c) {
    c = new DevControls(ctx.producer);
    controls.set(ctx.producer, c);
  }
  return c;
}

const headOf = (block: BlockRecord) => ({ block_hash: block.hash, block_height: block.height });

/** `sandbox_patch_state {records}` → `{}` once the block that wrote the records is committed. Other fields
 * are ignored, as nearcore's `RpcSandboxPatchStateRequest` (no `deny_unknown_fields`) ignores them:
 * near-workspaces sends its record builder whole, `{records, account_id}`. */
export async function sandboxPatchState(ctx: RpcContext, params: unknown) {
  const p = objectParams(params);
  let records: ReturnType<typeof parseStatePatch>;
  try {
    records = parseStatePatch(requireArray(p, 'records'));
  } catch (error) {
    if (error instanceof StatePatchError) failParse(error.message);
    throw error;
  }
  // Records of an account must come with its Account record unless the account exists.
  const chain = devControls(ctx).chain;
  const head = chain.head;
  const state = chain.stateAt(head.height);
  const withAccount = new Set(records.filter((r) => r.kind === 'Account').map((r) => r.accountId));
  for (const r of records) {
    if (withAccount.has(r.accountId) || getAccount(state, r.accountId)) continue;
    throw handlerError(
      'UNKNOWN_ACCOUNT',
      { requested_account_id: r.accountId, block_height: head.height, block_hash: head.hash },
      `account ${r.accountId} does not exist while viewing`,
    );
  }
  await devControls(ctx).patchState(records);
  return {};
}

/** `sandbox_fast_forward {delta_height}` → `{}` once the chain is `delta_height` heights further. Other
 * fields are ignored, as by nearcore's `RpcSandboxFastForwardRequest`. */
export async function sandboxFastForward(ctx: RpcContext, params: unknown) {
  const p = objectParams(params);
  const delta = blockCount(p, 'delta_height');
  await devControls(ctx).fastForward(delta);
  return {};
}

/** `sandbox_produce_blocks {count}` → `{block_hash, block_height}` of the new head. */
export async function sandboxProduceBlocks(ctx: RpcContext, params: unknown) {
  const p = objectParams(params);
  rejectUnknownFields(p, ['count']);
  const count = blockCount(p, 'count');
  return headOf(await devControls(ctx).produceBlocks(count));
}

/** `sandbox_set_next_block_timestamp {timestamp_nanosec}` → `{}`. */
export function sandboxSetNextBlockTimestamp(ctx: RpcContext, params: unknown) {
  const p = objectParams(params);
  rejectUnknownFields(p, ['timestamp_nanosec']);
  const v = p.timestamp_nanosec;
  if (v === undefined) failParse('missing field `timestamp_nanosec`');
  let ns: bigint | undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) ns = BigInt(v);
  else if (typeof v === 'string' && /^(0|[1-9][0-9]*)$/.test(v)) ns = BigInt(v);
  if (ns === undefined || ns > U64_MAX) {
    failParse(
      `invalid value: ${typeName(v)}, expected a u64 number of nanoseconds (number or decimal string)`,
    );
  }
  const head = devControls(ctx).chain.head;
  if (ns <= BigInt(head.timestampNs)) {
    throw handlerError(
      'INVALID_TIMESTAMP',
      { timestamp_nanosec: ns.toString(), head_timestamp_nanosec: head.timestampNs },
      `timestamp ${ns} is not after the head block's timestamp ${head.timestampNs}`,
    );
  }
  devControls(ctx).setNextBlockTimestamp(ns);
  return {};
}

/** `sandbox_snapshot` (params null, `[]` or `{}`) → the snapshot id, a decimal string. */
export function sandboxSnapshot(ctx: RpcContext, params: unknown) {
  if (params !== null && params !== undefined && !(Array.isArray(params) && params.length === 0)) {
    rejectUnknownFields(objectParams(params), []);
  }
  return devControls(ctx).snapshot();
}

/** `sandbox_revert {snapshot_id}` → `{block_hash, block_height}` of the head after the revert. */
export async function sandboxRevert(ctx: RpcContext, params: unknown) {
  const p = objectParams(params);
  rejectUnknownFields(p, ['snapshot_id']);
  const v = p.snapshot_id;
  if (v === undefined) failParse('missing field `snapshot_id`');
  if (!(typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v)))) {
    failParse(`invalid type: ${typeName(v)}, expected a snapshot id (string or integer)`);
  }
  try {
    return headOf(await devControls(ctx).revert(String(v)));
  } catch (error) {
    if (error instanceof DevControlsError) throw handlerError(error.kind, error.info, error.message);
    throw error;
  }
}

function blockCount(p: Params, field: string): number {
  const v = p[field];
  if (v === undefined) failParse(`missing field \`${field}\``);
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    failParse(`invalid value: ${typeName(v)}, expected u64`);
  }
  if (v > MAX_BLOCKS_PER_CALL) {
    throw handlerError(
      'TOO_MANY_BLOCKS',
      { requested: v, limit: MAX_BLOCKS_PER_CALL },
      `${field} ${v} is above the limit of ${MAX_BLOCKS_PER_CALL} blocks per call`,
    );
  }
  return v;
}

/**
 * `maintenance_windows` (and `EXPERIMENTAL_maintenance_windows`): the ranges of block heights, from the head to
 * the end of the current epoch, at which `account_id` produces neither the block nor any chunk, so its node can
 * be taken down (nearcore chain/client view_client `get_maintenance_windows`). Each range is a Rust
 * `Range<BlockHeight>`, `{start, end}` with `end` excluded. Here the one validator produces every block and
 * chunk: it has no window, and any other account has the whole rest of the epoch.
 */
import type { RpcContext } from '../rpc-context.js';
import { readAccountId, readStruct } from '../serde.js';

export function maintenanceWindows(ctx: RpcContext, params: unknown) {
  // nearcore reads the params as `RpcMaintenanceWindowsRequest { account_id }`.
  const { account_id: accountId } = readStruct(params, 'RpcMaintenanceWindowsRequest', {
    account_id: { read: readAccountId },
  });
  const chain = ctx.chain;
  const head = chain.head.height;
  const nextEpochStart = chain.epochOf(head).startHeight + chain.genesis.epoch_length;
  const windows: Array<{ start: number; end: number }> = [];
  let start: number | undefined;
  for (let height = head; height < nextEpochStart; height++) {
    const producer = chain.validatorAccountId;
    if (accountId !== producer) {
      start ??= height;
    } else if (start !== undefined) {
      windows.push({ start, end: height });
      start = undefined;
    }
  }
  if (start !== undefined) windows.push({ start, end: nextEpochStart });
  return windows;
}

/**
 * Whether a yielded promise (`promise_yield_create`) still waits for its resume at the head. nearcore keeps
 * every yield's timeout in a queue in the state until the timeout's height, even when the yield was resumed
 * earlier; the yield itself is pending while its receipt is stored (resuming or timing out removes it).
 */
import {
  getPromiseYieldIndices,
  getPromiseYieldTimeout,
  hasPromiseYieldReceipt,
} from '../state/receipt-state.js';
import type { Chain } from './chain.js';

/** How many yield timeouts the head's state still queues, all shards together (waiting yields and resumed
 * ones alike). */
export function queuedYieldTimeouts(chain: Chain): number {
  const state = chain.stateAt(chain.head.height);
  let queued = 0;
  for (let shard = 0; shard < chain.numShards; shard++) {
    const indices = getPromiseYieldIndices(state, shard);
    queued += Number(indices.nextAvailableIndex - indices.firstIndex);
  }
  return queued;
}

export function hasPendingYield(chain: Chain): boolean {
  const state = chain.stateAt(chain.head.height);
  for (let shard = 0; shard < chain.numShards; shard++) {
    const indices = getPromiseYieldIndices(state, shard);
    for (let index = indices.firstIndex; index < indices.nextAvailableIndex; index++) {
      const timeout = getPromiseYieldTimeout(state, shard, index);
      if (timeout && hasPromiseYieldReceipt(state, timeout.accountId, timeout.dataId)) return true;
    }
  }
  return false;
}

/**
 * The stake proposals of an epoch so far, as nearcore's `validators` reports them in `current_proposals` (its
 * epoch manager's `EpochInfoAggregator::all_proposals`): every Stake action that took effect, from a
 * transaction or from a contract's promise, reaches the header of the block after the one whose chunk applied
 * it (`validator_proposals`); the aggregator keeps the latest proposal per account over the epoch's blocks, in
 * account id order.
 */
import type { Chain } from './chain.js';

/** `ValidatorStakeView` (V1), in nearcore's field order: the tag, then the struct's fields. */
export interface ValidatorStakeView {
  validator_stake_struct_version: 'V1';
  account_id: string;
  public_key: string;
  stake: string;
}

/** The latest proposal per account in the headers of the blocks of `height`'s epoch, up to `height`. */
export function currentProposals(chain: Chain, height: number): ValidatorStakeView[] {
  const start = chain.epochOf(height).startHeight;
  const latest = new Map<string, ValidatorStakeView>();
  let block = chain.blockByHeight(height);
  // Newest block first, and within a block the last proposal first: the first one seen per account wins.
  while (block && block.height >= start) {
    const prev = chain.blockByHash(block.prevHash);
    if (!prev) break;
    const proposals = prev.chunkExtras.flatMap((extra) => extra.validatorProposals);
    for (let i = proposals.length - 1; i >= 0; i--) {
      const p = proposals[i];
      if (latest.has(p.account_id)) continue;
      latest.set(p.account_id, {
        validator_stake_struct_version: 'V1',
        account_id: p.account_id,
        public_key: p.public_key,
        stake: p.stake,
      });
    }
    block = prev;
  }
  return [...latest.values()].sort((a, b) =>
    a.account_id < b.account_id ? -1 : a.account_id > b.account_id ? 1 : 0,
  );
}

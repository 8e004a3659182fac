/**
 * What the epoch manager decides about stakes, for this node's single, fixed validator set (the genesis
 * validators, every epoch): the seat price and the minimum stake a Stake action may ask for, and which
 * locked balances are returned at an epoch boundary.
 */
import type { GenesisConfig } from '../config/genesis.js';
import type { ValidatorAccountsUpdate } from '../runtime/validator-accounts-update.js';

/**
 * The stake threshold of one role (nearcore's epoch-manager `select_validators`): the top `seats` stakes
 * are taken while each one is more than `minimum_stake_ratio` of the total so far. When every seat is
 * filled the threshold is one more than the smallest stake taken; otherwise it is the least stake that would
 * still pass the ratio, `ceil(r·T / (1 − r))` (`FixStakingThreshold`).
 */
function roleThreshold(stakes: readonly bigint[], seats: number, ratio: readonly [number, number]): bigint {
  const [n, d] = [BigInt(ratio[0]), BigInt(ratio[1])];
  const taken: bigint[] = [];
  let total = 0n;
  for (const stake of stakes.slice(0, seats)) {
    // stake / (total + stake) > n / d
    if (stake * d > n * (total + stake)) {
      taken.push(stake);
      total += stake;
    } else break;
  }
  if (seats > 0 && taken.length === seats) return taken[taken.length - 1] + 1n;
  return d > n ? (n * total + (d - n) - 1n) / (d - n) : 0n;
}

/** The seat price of the genesis validator set: the smallest threshold of the chunk producer, block producer
 * and chunk validator roles (stateless validation). */
export function seatPrice(genesis: GenesisConfig): bigint {
  const stakes = genesis.validators.map((v) => BigInt(v.amount)).sort((a, b) => (a > b ? -1 : a < b ? 1 : 0));
  const ratio = genesis.minimum_stake_ratio;
  return [
    genesis.num_chunk_producer_seats,
    genesis.num_block_producer_seats,
    genesis.num_chunk_validator_seats,
  ]
    .map((seats) => roleThreshold(stakes, seats, ratio))
    .reduce((a, b) => (a < b ? a : b));
}

/** The smallest stake a Stake action may request (`EpochManager::minimum_stake`). */
export function minimumStake(genesis: GenesisConfig): bigint {
  return seatPrice(genesis) / BigInt(genesis.minimum_stake_divisor || 1);
}

/**
 * The validator accounts update applied by the first block of a new epoch, from the stake proposals made by
 * the blocks of the epoch that ended (the latest proposal per account counts).
 *
 * nearcore returns `locked − max(stake over the last epochs, last proposal)` to every account that was a
 * validator or proposed during the last epochs, where "stake over the last epochs" is the most the account
 * had in the validator sets and stake changes of the current, next and next-but-one epochs. Our validator set
 * is the genesis set in every epoch and a proposal never makes anyone a validator, so that stake is the
 * genesis validator stake (0 for everyone else), and the accounts considered are the genesis validators and
 * those that proposed in the ended epoch. Consequences: a lowered or zero proposal releases the difference at
 * the next epoch boundary, where nearcore would keep it locked while the account stays in the validator sets
 * of the following epochs; a genesis validator that raised its stake gets the raise back one epoch after its
 * last proposal. Validator rewards (inflation) are not minted.
 */
export function validatorAccountsUpdate(
  genesis: GenesisConfig,
  proposals: ReadonlyArray<{ account_id: string; stake: string }>,
): ValidatorAccountsUpdate {
  const lastProposals = new Map<string, bigint>();
  for (const p of proposals) lastProposals.set(p.account_id, BigInt(p.stake));
  const stakeInfo = new Map<string, bigint>();
  for (const accountId of lastProposals.keys()) stakeInfo.set(accountId, 0n);
  for (const v of genesis.validators) stakeInfo.set(v.account_id, BigInt(v.amount));
  return { stakeInfo, lastProposals };
}

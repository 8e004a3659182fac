/**
 * Chain-wide balance checks of the end-to-end tests: conservation of tokens, total supply in block headers,
 * burnt amounts per block and per outcome, computed from the fee schedule (fees.ts).
 */
import assert from 'node:assert/strict';
import { depositOf } from './fees.js';
import { type Json, rpcRaw } from './raw-rpc.js';
import { receiptView } from './receipts.js';
import { block, blockHeight, rpc, viewAccount } from './rpc-calls.js';
import type { TestNode } from './test-node.js';
import { type TxRef, txStatus } from './transactions.js';

export interface OutcomeInfo {
  id: string;
  blockHash: string;
  height: number;
  gasBurnt: bigint;
  tokensBurnt: bigint;
  /** Set for receipt outcomes. */
  receipt?: Json;
  isTx: boolean;
  failed: boolean;
}

/** Every outcome of `txs` (FINAL), with the receipt views from EXPERIMENTAL_tx_status. */
export async function collectOutcomes(url: string, txs: TxRef[]): Promise<OutcomeInfo[]> {
  const heights = new Map<string, number>();
  const heightOf = async (hash: string) => {
    let h = heights.get(hash);
    if (h === undefined) {
      h = await blockHeight(url, hash);
      heights.set(hash, h);
    }
    return h;
  };
  const out: OutcomeInfo[] = [];
  for (const tx of txs) {
    const status = await txStatus(url, tx, 'FINAL');
    const t = status.transaction_outcome;
    out.push({
      id: t.id,
      blockHash: t.block_hash,
      height: await heightOf(t.block_hash),
      gasBurnt: BigInt(t.outcome.gas_burnt),
      tokensBurnt: BigInt(t.outcome.tokens_burnt),
      isTx: true,
      failed: false,
    });
    for (const o of status.receipts_outcome) {
      let receipt = receiptView(status, o.id);
      if (!receipt) {
        const { result } = await rpcRaw(url, 'EXPERIMENTAL_receipt', { receipt_id: o.id });
        receipt = result;
      }
      out.push({
        id: o.id,
        blockHash: o.block_hash,
        height: await heightOf(o.block_hash),
        gasBurnt: BigInt(o.outcome.gas_burnt),
        tokensBurnt: BigInt(o.outcome.tokens_burnt),
        receipt,
        isTx: false,
        failed: typeof o.outcome.status === 'object' && 'Failure' in o.outcome.status,
      });
    }
  }
  return out;
}

/**
 * The function-call reward a receipt paid its receiver, read from the state changes of its block: the
 * `action_receipt_gas_reward` change of the receiver's account minus the account's amount just before it.
 */
export async function contractReward(url: string, o: OutcomeInfo): Promise<bigint> {
  if (o.isTx || o.receipt?.predecessor_id === 'system') return 0n;
  const actions: Json[] = o.receipt?.receipt?.Action?.actions ?? [];
  if (!actions.some((a) => typeof a === 'object' && 'FunctionCall' in a)) return 0n;
  const accountId: string = o.receipt.receiver_id;
  const { changes } = await rpc(url, 'EXPERIMENTAL_changes', {
    changes_type: 'account_changes',
    account_ids: [accountId],
    block_id: o.blockHash,
  });
  const index = changes.findIndex(
    (c: Json) => c.cause.type === 'action_receipt_gas_reward' && c.cause.receipt_hash === o.id,
  );
  if (index < 0) return 0n;
  const before =
    index > 0
      ? BigInt(changes[index - 1].change.amount)
      : (await viewAccount(url, accountId, { block_id: o.height - 1 }))!.amount;
  return BigInt(changes[index].change.amount) - before;
}

/** What a failed refund burns: its deposit (it is in no outcome's tokens_burnt). */
function otherBurnt(o: OutcomeInfo): bigint {
  if (!o.failed || o.receipt?.predecessor_id !== 'system') return 0n;
  return depositOf(o.receipt.receipt.Action.actions);
}

/**
 * Checks, for a chain on which `txs` are the only transactions and `accounts` every account that ever held
 * a balance:
 * - each block's `total_supply` is the previous one's minus the `balance_burnt` of its chunk headers;
 * - the chunk headers of block h+1 carry exactly the tokens burnt and gas burnt by the outcomes of block h
 *   (plus failed refunds);
 * - refund outcomes burn nothing; transaction outcomes burn gas × the block's price;
 * - Σ (amount + locked) of all accounts + everything burnt == the genesis total supply.
 */
export async function checkConservation(
  t: TestNode,
  accounts: string[],
  txs: TxRef[],
  options: { extraBurnt?: bigint } = {},
): Promise<{ head: number; burnt: bigint }> {
  const { url } = t;
  const outcomes = await collectOutcomes(url, txs);
  const head = (await block(url, { finality: 'final' })).header.height as number;
  const genesis = await block(url, { block_id: t.node.chain.genesisHeight });
  const genesisSupply = BigInt(genesis.header.total_supply);
  const genesisConfig = await rpc(url, 'EXPERIMENTAL_genesis_config', null);
  assert.equal(genesisSupply, BigInt(genesisConfig.total_supply), 'genesis header total_supply');

  const byHeight = new Map<number, { tokens: bigint; gas: bigint }>();
  let rewards = 0n;
  for (const o of outcomes) {
    assert.ok(o.height <= head, `outcome ${o.id} after the final head`);
    const entry = byHeight.get(o.height) ?? { tokens: 0n, gas: 0n };
    // The contract's share of a function call's gas is paid back out of what the receipt burnt.
    const reward = await contractReward(url, o);
    rewards += reward;
    entry.tokens += o.tokensBurnt + otherBurnt(o) - reward;
    entry.gas += o.gasBurnt;
    byHeight.set(o.height, entry);
    if (o.receipt?.predecessor_id === 'system') {
      assert.equal(o.gasBurnt, 0n, `refund ${o.id} burns no gas`);
      assert.equal(o.tokensBurnt, 0n, `refund ${o.id} burns no tokens`);
    }
  }

  let prev = genesis;
  let burntTotal = 0n;
  const gasPrices = new Map<number, bigint>();
  for (let h = genesis.header.height + 1; h <= head; h++) {
    const b = await block(url, { block_id: h });
    gasPrices.set(h, BigInt(prev.header.gas_price));
    const chunkBurnt = b.chunks.reduce((s: bigint, c: Json) => s + BigInt(c.balance_burnt), 0n);
    const chunkGas = b.chunks.reduce((s: bigint, c: Json) => s + BigInt(c.gas_used), 0n);
    assert.equal(
      BigInt(b.header.total_supply),
      BigInt(prev.header.total_supply) - chunkBurnt,
      `total_supply of block ${h}`,
    );
    const applied = byHeight.get(h - 1) ?? { tokens: 0n, gas: 0n };
    assert.equal(chunkBurnt, applied.tokens, `balance_burnt in the chunks of block ${h}`);
    assert.equal(chunkGas, applied.gas, `gas_used in the chunks of block ${h}`);
    burntTotal += chunkBurnt;
    prev = b;
  }
  // What block `head` itself burnt shows up in the next block's headers.
  const lastBurnt = byHeight.get(head)?.tokens ?? 0n;

  for (const o of outcomes) {
    const price = gasPrices.get(o.height)!;
    if (o.isTx) {
      assert.equal(o.tokensBurnt, o.gasBurnt * price, `tx outcome ${o.id}: tokens = gas × price`);
      continue;
    }
    if (o.receipt.predecessor_id === 'system') continue;
    // Receipts burn at min(purchase price, block price), plus the creation charge when they create their
    // receiver (CreateAccount, a transfer to a missing implicit account, or a deterministic state init).
    const purchase = BigInt(o.receipt.receipt.Action.gas_price);
    const burnPrice = purchase < price ? purchase : price;
    const extra = o.tokensBurnt - o.gasBurnt * burnPrice;
    if (extra !== 0n) {
      assert.equal(
        extra,
        t.fees.creationCharge(burnPrice),
        `receipt ${o.id}: only the creation charge on top`,
      );
      assert.ok(!o.failed, `failed receipt ${o.id} creates nothing`);
      const acts: Json[] = o.receipt.receipt.Action.actions;
      const receiver: string = o.receipt.receiver_id;
      assert.ok(
        acts.includes('CreateAccount') || /^([0-9a-f]{64}|0[xs][0-9a-f]{40})$/.test(receiver),
        `receipt ${o.id} paid a creation charge without creating an account`,
      );
    }
  }

  let total = 0n;
  for (const id of accounts) {
    const a = await viewAccount(url, id, { block_id: head });
    if (a) total += a.amount + a.locked;
  }
  const outcomeBurnt = outcomes.reduce((s, o) => s + o.tokensBurnt + otherBurnt(o), 0n) - rewards;
  const extra = options.extraBurnt ?? 0n;
  assert.equal(total + burntTotal + lastBurnt, genesisSupply, 'Σ balances + Σ burnt == genesis supply');
  assert.equal(outcomeBurnt + extra, burntTotal + lastBurnt, 'Σ outcome burnt == Σ chunk balance_burnt');
  assert.equal(BigInt(prev.header.total_supply) - lastBurnt, total, 'Σ balances == head total_supply');
  return { head, burnt: burntTotal + lastBurnt };
}

/**
 * Recent EVM history, as scan.ts reads NEAR's: no index, so "an address's transactions" and "the transaction
 * carrying a signature" walk back from the head block by block (`eth_getBlockByHash` with full transactions,
 * following `parentHash`, so a reverted chain is never mixed with the old one) over at most
 * `EVM_SCAN_BLOCKS` blocks. Blocks are immutable by hash: each is fetched once per page load.
 */
import { evmRpc, quantity } from './evm-rpc.js';
import type { Json } from './json.js';

export const EVM_SCAN_BLOCKS = 300;

export interface EvmTx {
  hash: string;
  from: string;
  to: string | null;
  value: bigint;
  nonce: number;
  r: string;
  s: string;
  v: string;
  yParity?: string;
  blockNumber: number;
  blockHash: string;
}

export interface EvmBlock {
  number: number;
  hash: string;
  parentHash: string;
  timestamp: number;
  transactions: EvmTx[];
}

const cache = new Map<string, Promise<EvmBlock>>();

function toBlock(raw: Json): EvmBlock {
  const number = Number(quantity(raw.number));
  return {
    number,
    hash: raw.hash,
    parentHash: raw.parentHash,
    timestamp: Number(quantity(raw.timestamp)),
    transactions: (raw.transactions as Json[]).map((t) => ({
      hash: t.hash,
      from: t.from,
      to: t.to ?? null,
      value: quantity(t.value),
      nonce: Number(quantity(t.nonce)),
      r: t.r,
      s: t.s,
      v: t.v,
      yParity: t.yParity,
      blockNumber: number,
      blockHash: raw.hash,
    })),
  };
}

function evmBlock(hash: string): Promise<EvmBlock> {
  let p = cache.get(hash);
  if (!p) {
    p = evmRpc('eth_getBlockByHash', [hash, true]).then((raw) => {
      if (!raw) throw new Error(`no EVM block ${hash}`);
      return toBlock(raw);
    });
    p.catch(() => cache.delete(hash));
    cache.set(hash, p);
  }
  return p;
}

/** Calls `visit` on each block from the head back until it returns true, `limit` blocks were read, or block 0
 * was. Returns how many blocks it read. */
export async function evmScanBack(
  visit: (block: EvmBlock) => boolean | undefined,
  limit = EVM_SCAN_BLOCKS,
): Promise<number> {
  const head = await evmRpc('eth_getBlockByNumber', ['latest', false]);
  let hash: string = head.hash;
  let seen = 0;
  while (seen < limit) {
    const block = await evmBlock(hash);
    seen++;
    if (visit(block) || block.number === 0) break;
    hash = block.parentHash;
  }
  return seen;
}

/** Transactions of the last blocks that match, newest first (at most `max`). */
export async function findEvmTransactions(match: (tx: EvmTx) => boolean, max = 50) {
  const found: EvmTx[] = [];
  const scanned = await evmScanBack((block) => {
    for (const tx of [...block.transactions].reverse()) if (match(tx) && found.length < max) found.push(tx);
    return found.length >= max;
  });
  return { found, scanned };
}

export interface EvmReceipt {
  status: 'success' | 'reverted';
  gasUsed: bigint;
  effectiveGasPrice: bigint;
  contractAddress: string | null;
}

const receipts = new Map<string, Promise<EvmReceipt | undefined>>();

/** A mined transaction's receipt (status, gas), fetched once. */
export function evmReceipt(hash: string): Promise<EvmReceipt | undefined> {
  let p = receipts.get(hash);
  if (!p) {
    p = evmRpc('eth_getTransactionReceipt', [hash]).then((r) =>
      r
        ? {
            status: quantity(r.status) === 1n ? 'success' : 'reverted',
            gasUsed: quantity(r.gasUsed),
            effectiveGasPrice: quantity(r.effectiveGasPrice),
            contractAddress: r.contractAddress ?? null,
          }
        : undefined,
    );
    p.catch(() => receipts.delete(hash));
    receipts.set(hash, p);
  }
  return p;
}

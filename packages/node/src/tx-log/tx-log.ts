/**
 * The live transaction log: a subscriber on the chain's `executed` event (emitted once a block is committed,
 * with its chunks' results) that writes one readable entry per transaction and receipt
 * (./format-entries.ts). Nothing is formatted while no log is attached; RPC answers are not touched.
 */
import type { Chain } from '../chain/chain.js';
import type { BlockRecord } from '../chain/records.js';
import type { ChunkResult } from '../runtime/apply-chunk.js';
import type { Colours } from './colours.js';
import { formatBlockEntries } from './format-entries.js';

const MAX_ORIGINS = 10_000;

export interface TxLogOptions {
  /** Where the entries go (the CLI: stderr). */
  write(text: string): void;
  colours?: Colours;
}

/** Starts logging the transactions of every new block of `chain`; returns what stops it. */
export function attachTxLog(chain: Chain, options: TxLogOptions): () => void {
  // Receipts a transaction became, until they execute (the next block, or later when delayed).
  const origins = new Map<string, string>();
  const onExecuted = (block: BlockRecord, results: readonly ChunkResult[]) => {
    try {
      const text = formatBlockEntries(block.height, results, options.colours, origins);
      // Bounded, whatever happens to receipts (a revert drops them): forget the oldest.
      for (const key of origins.keys()) {
        if (origins.size <= MAX_ORIGINS) break;
        origins.delete(key);
      }
      if (text !== '') options.write(text);
    } catch (error) {
      // A log must never stop block production.
      options.write(
        `(transaction log: could not format block #${block.height}: ${(error as Error).message})\n`,
      );
    }
  };
  chain.on('executed', onExecuted);
  return () => chain.off('executed', onExecuted);
}

/**
 * Reads recent history through the RPC: there is no index, so "an account's transactions", "find this hash"
 * and "the signer's requests" walk back from the head block by block (`block`, then `chunk` per shard) over at
 * most `SCAN_BLOCKS` blocks. Blocks and chunks are immutable, so each is fetched once and kept.
 */
import type { Json } from './json.js';
import { rpc } from './rpc.js';

export const SCAN_BLOCKS = 300;

export interface ChunkData {
  transactions: Array<{ hash: string; signer_id: string; receiver_id: string; actions: Json[] }>;
  receipts: Array<{ receipt_id: string; predecessor_id: string; receiver_id: string; receipt: Json }>;
}
export interface ScannedBlock {
  height: number;
  hash: string;
  prevHash: string;
  timestamp: string;
  chunks: ChunkData[];
}

const cache = new Map<string, Promise<ScannedBlock>>();

export function scannedBlock(hash: string): Promise<ScannedBlock> {
  let p = cache.get(hash);
  if (!p) {
    p = (async () => {
      const block = await rpc('block', { block_id: hash });
      const chunks = await Promise.all(
        block.chunks
          .filter((c: Json) => c.height_included === block.header.height)
          .map((c: Json) => rpc('chunk', { chunk_id: c.chunk_hash })),
      );
      return {
        height: block.header.height,
        hash: block.header.hash,
        prevHash: block.header.prev_hash,
        timestamp: block.header.timestamp_nanosec,
        chunks: chunks.map((c: Json) => ({ transactions: c.transactions, receipts: c.receipts })),
      };
    })();
    p.catch(() => cache.delete(hash));
    cache.set(hash, p);
  }
  return p;
}

/**
 * Calls `visit` on each block from the head back, newest first, until it returns true, `limit` blocks were
 * seen, or the chain's start (or the garbage-collected horizon) is reached. Returns how many blocks it read.
 */
export async function scanBack(
  visit: (block: ScannedBlock) => boolean | undefined | Promise<boolean | undefined>,
  limit = SCAN_BLOCKS,
): Promise<number> {
  const head = await rpc('block', { finality: 'optimistic' });
  let hash: string = head.header.hash;
  let seen = 0;
  while (seen < limit) {
    let block: ScannedBlock;
    try {
      block = await scannedBlock(hash);
    } catch {
      break;
    }
    seen++;
    if (await visit(block)) break;
    if (block.height === 0 || /^1{32}$/.test(block.prevHash)) break;
    hash = block.prevHash;
  }
  return seen;
}

export interface FoundTx {
  hash: string;
  signer_id: string;
  receiver_id: string;
  actions: Json[];
  height: number;
  blockHash: string;
}

/** Transactions of recent blocks that match, newest first. */
export async function findTransactions(match: (tx: ChunkData['transactions'][number]) => boolean, max = 50) {
  const found: FoundTx[] = [];
  const scanned = await scanBack((block) => {
    for (const chunk of block.chunks)
      for (const tx of chunk.transactions)
        if (match(tx)) found.push({ ...tx, height: block.height, blockHash: block.hash });
    return found.length >= max;
  });
  return { found, scanned };
}

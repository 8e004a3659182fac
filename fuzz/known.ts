/**
 * What the fuzzer has seen of the chain (block hashes and heights, chunk hashes, transactions, receipts,
 * accounts, keys): valid values for the params it then breaks. Each list keeps its latest entries.
 */
export class Known {
  heights: number[] = [0];
  blockHashes: string[] = [];
  chunkHashes: string[] = [];
  epochIds: string[] = [];
  txs: Array<{ hash: string; sender: string }> = [];
  receiptIds: string[] = [];
  accounts: string[] = [];
  publicKeys: string[] = [];
  signedTxs: string[] = [];

  static readonly KEEP = 64;

  add<T>(list: T[], value: T): void {
    if (list.includes(value)) return;
    list.push(value);
    if (list.length > Known.KEEP) list.shift();
  }

  /** Learns from a block view. */
  block(view: unknown): void {
    const b = view as {
      header?: { hash?: string; height?: number; epoch_id?: string };
      chunks?: Array<{ chunk_hash?: string }>;
    };
    if (!b?.header?.hash) return;
    this.add(this.blockHashes, b.header.hash);
    if (typeof b.header.height === 'number') this.add(this.heights, b.header.height);
    if (b.header.epoch_id) this.add(this.epochIds, b.header.epoch_id);
    for (const c of b.chunks ?? []) if (c.chunk_hash) this.add(this.chunkHashes, c.chunk_hash);
  }

  /** Learns from a transaction outcome. */
  outcome(view: unknown): void {
    const o = view as { receipts_outcome?: Array<{ id?: string }> };
    for (const r of o?.receipts_outcome ?? []) if (r.id) this.add(this.receiptIds, r.id);
  }
}

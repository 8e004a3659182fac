/**
 * Transactions accepted by the RPC and waiting for a block. A block takes them in arrival order, except that
 * transactions of one access key (of one nonce index of a gas key) go in nonce order (so a burst sent out of
 * order still applies).
 */
import { base58Encode, publicKeyToString } from '@shadebox/primitives';
import type { PendingTransaction } from '../runtime/apply-chunk.js';

export class TxPool {
  private readonly byHash = new Map<string, PendingTransaction>();

  get size(): number {
    return this.byHash.size;
  }

  has(hash: Uint8Array): boolean {
    return this.byHash.has(base58Encode(hash));
  }

  /** Adds a transaction; false when the same transaction is already waiting. */
  add(tx: PendingTransaction): boolean {
    const key = base58Encode(tx.hash);
    if (this.byHash.has(key)) return false;
    this.byHash.set(key, tx);
    return true;
  }

  /** Removes and returns up to `max` transactions for the next block. */
  take(max: number): PendingTransaction[] {
    const taken: PendingTransaction[] = [];
    for (const [key, tx] of this.byHash) {
      if (taken.length >= max) break;
      taken.push(tx);
      this.byHash.delete(key);
    }
    // Each nonce index of a gas key has its own nonces: it orders as a key of its own.
    const keyOf = (t: PendingTransaction) =>
      `${t.signedTransaction.transaction.signerId}/${publicKeyToString(t.signedTransaction.transaction.publicKey)}/${t.signedTransaction.transaction.nonceIndex ?? ''}`;
    const firstSeen = new Map<string, number>();
    taken.forEach((t, i) => {
      if (!firstSeen.has(keyOf(t))) firstSeen.set(keyOf(t), i);
    });
    return taken.sort((a, b) => {
      const ka = firstSeen.get(keyOf(a))!;
      const kb = firstSeen.get(keyOf(b))!;
      if (ka !== kb) return ka - kb;
      const na = a.signedTransaction.transaction.nonce;
      const nb = b.signedTransaction.transaction.nonce;
      return na < nb ? -1 : na > nb ? 1 : 0;
    });
  }
}

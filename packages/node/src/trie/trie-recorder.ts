/**
 * The nodes and values a chunk touched, as nearcore's `TrieRecorder` (core/store/src/trie/trie_recording.rs)
 * keeps them for the state witness: each distinct hash once; `size` is the sum of the recorded bytes; the
 * upper bound adds 2000 per removed key (a removal may read nodes only when the trie is finally updated) and
 * the length of each contract code read. Receipts are limited on the growth of the upper bound
 * (`per_receipt_storage_proof_size_limit`), chunks on its total (`main_storage_proof_size_soft_limit`).
 */
import { CryptoHashMap } from './hash-map.js';

/** What nearcore adds to the upper bound for every `storage_remove`. */
export const REMOVAL_UPPER_BOUND_BYTES = 2000;

export class TrieRecorder {
  readonly #recorded = new CryptoHashMap<Uint8Array>();
  #size = 0;
  #upperBound = 0;
  #removals = 0;
  #codeLength = 0;

  /** @param proofSizeLimit the soft limit `exceedsLimit` checks the upper bound against, if any */
  constructor(readonly proofSizeLimit?: number) {}

  /** Records a node or value read from the trie; a hash already recorded adds nothing. */
  record(hash: Uint8Array, bytes: Uint8Array): void {
    if (this.#recorded.has(hash)) return;
    this.#recorded.set(hash, bytes);
    this.#size += bytes.length;
    this.#upperBound += bytes.length;
  }

  recordKeyRemoval(): void {
    this.#removals += 1;
    this.#upperBound += REMOVAL_UPPER_BOUND_BYTES;
  }

  recordCodeLength(length: number): void {
    this.#codeLength += length;
    this.#upperBound += length;
  }

  has(hash: Uint8Array): boolean {
    return this.#recorded.has(hash);
  }

  /** How many distinct nodes and values were recorded. */
  get count(): number {
    return this.#recorded.size;
  }

  /** nearcore's `recorded_storage_size`. */
  get size(): number {
    return this.#size;
  }

  /** nearcore's `recorded_storage_size_upper_bound`. */
  get upperBound(): number {
    return this.#upperBound;
  }

  get removals(): number {
    return this.#removals;
  }

  get codeLength(): number {
    return this.#codeLength;
  }

  exceedsLimit(): boolean {
    return this.proofSizeLimit !== undefined && this.#upperBound > this.proofSizeLimit;
  }

  /** The recorded bytes, sorted as nearcore's `recorded_storage` sorts them (bytewise). */
  recordedNodes(): Uint8Array[] {
    return [...this.#recorded.values()].sort((a, b) => Buffer.compare(a, b));
  }
}

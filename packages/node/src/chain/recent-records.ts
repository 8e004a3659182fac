import { latin1String } from '@shadebox/primitives';

/**
 * The most recently written records of one kind (outcomes, transactions, receipts, blocks), kept parsed in
 * memory: whoever waits on a transaction reads them again on every block, and parsing them from the store each
 * time is a good part of a block's cost. The records are immutable once written; callers must not modify what
 * they get.
 *
 * Bounded in entries and in bytes (each record's size as stored, its JSON text: the parsed copy takes a small
 * multiple of it), whichever is reached first; the least recently stored record goes first.
 */

export interface RecentRecordsLimits {
  /** Most records kept. */
  entries: number;
  /** Most bytes kept, counting each record at the size it was given with. */
  bytes: number;
}

export class RecentRecords<T, K = string> {
  private readonly entries = new Map<K, { record: T; bytes: number }>();
  private totalBytes = 0;

  constructor(readonly limits: RecentRecordsLimits) {}

  /** A record id's bytes as a Map key. */
  static key(id: Uint8Array): string {
    return latin1String(id);
  }

  /** Records kept now. */
  get size(): number {
    return this.entries.size;
  }

  /** Sum of the sizes of the records kept now. */
  get bytes(): number {
    return this.totalBytes;
  }

  get(key: K): T | undefined {
    return this.entries.get(key)?.record;
  }

  /** Keeps `record` (whose stored size is `bytes`) as the newest; evicts the oldest past either limit. A
   * record larger than the byte limit by itself is not kept. */
  set(key: K, record: T, bytes: number): void {
    this.delete(key);
    if (bytes > this.limits.bytes || this.limits.entries <= 0) return;
    this.entries.set(key, { record, bytes });
    this.totalBytes += bytes;
    while (this.entries.size > this.limits.entries || this.totalBytes > this.limits.bytes) {
      this.delete(this.entries.keys().next().value as K);
    }
  }

  /** Forgets one record; returns it, if it was kept. */
  delete(key: K): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
    this.onEvict?.(key, entry.record);
    return entry.record;
  }

  /** Called for every record that leaves (evicted, replaced or deleted; not on `clear`). */
  onEvict?: (key: K, record: T) => void;

  clear(): void {
    this.entries.clear();
    this.totalBytes = 0;
  }
}

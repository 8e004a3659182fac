/**
 * The most recently written records of one kind (outcomes, transactions, receipts), kept parsed in memory:
 * whoever waits on a transaction reads them again on every block, and parsing them from the store each time
 * is a good part of a block's cost. The records are immutable once written; callers must not modify what
 * they get.
 */
export class RecentRecords<T> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly capacity: number) {}

  static key(id: Uint8Array): string {
    return Buffer.from(id.buffer, id.byteOffset, id.byteLength).toString('latin1');
  }

  get(id: Uint8Array): T | undefined {
    return this.entries.get(RecentRecords.key(id));
  }

  set(id: Uint8Array, record: T): void {
    const key = RecentRecords.key(id);
    this.entries.delete(key);
    this.entries.set(key, record);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  clear(): void {
    this.entries.clear();
  }
}

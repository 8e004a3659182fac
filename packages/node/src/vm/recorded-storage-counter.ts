/**
 * The per-receipt storage-proof limit inside a call (nearcore near-vm-runner logic/recorded_storage_counter.rs):
 * after every storage operation the host function observes the chunk's recorded proof size (its upper bound)
 * and fails with `RecordedStorageExceeded` once it grew by more than `per_receipt_storage_proof_size_limit`
 * since `initial` (the call's start before protocol 86, the receipt's start from 86).
 */
import { hostError } from './vm-errors.js';

export class RecordedStorageCounter {
  constructor(
    private readonly initial: number,
    private readonly limit: number,
  ) {}

  observe(size: number): void {
    if (size - this.initial > this.limit) throw hostError.recordedStorageExceeded(this.limit);
  }
}

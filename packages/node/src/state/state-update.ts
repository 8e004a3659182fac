/**
 * The state as seen while one block is applied: an overlay of writes on top of the committed state of the
 * previous block. Writes first go to a pending layer (one transaction or receipt); `commit(cause)` folds them
 * into the block's layer and records each change with its cause, `rollback()` drops them (a failed receipt
 * leaves no trace). `finish()` returns the block's net writes for the store.
 */
import { latin1String } from '@shadebox/primitives';
import { contractDataKey } from './state-keys.js';
import type { VersionedState } from './versioned-state.js';

/** Why a key changed: nearcore's `StateChangeCause`, as the `changes` RPC reports it. */
export type StateChangeCause =
  | { type: 'initial_state' }
  | { type: 'transaction_processing'; tx_hash: string }
  | { type: 'receipt_processing'; receipt_hash: string }
  | { type: 'action_receipt_gas_reward'; receipt_hash: string }
  | { type: 'action_receipt_processing_started'; receipt_hash: string }
  | { type: 'postponed_receipt'; receipt_hash: string }
  | { type: 'updated_delayed_receipts' }
  | { type: 'validator_accounts_update' }
  | { type: 'bandwidth_scheduler_state_update' }
  | { type: 'migration' };

export interface StateChange {
  key: Uint8Array;
  /** `null` when the key was deleted. */
  value: Uint8Array | null;
  cause: StateChangeCause;
}

/**
 * Told of every read the overlay cannot answer, i.e. that goes to the state before the chunk (nearcore's
 * `TrieUpdate` falls through to its trie there, and a trie with a recorder records what the lookup walks).
 */
export interface StateReadObserver {
  /** A value read: `value` is the base's (undefined when the key is absent). */
  read(key: Uint8Array, value: Uint8Array | undefined): void;
  /** An existence check (nearcore's `contains_key`: the path, not the value). */
  has(key: Uint8Array): void;
  /** The keys under `prefix` listed (nearcore's trie iterator). */
  scan(prefix: Uint8Array): void;
}

const asMapKey = latin1String;
const fromMapKey = (key: string) => new Uint8Array(Buffer.from(key, 'latin1'));

export class StateUpdate {
  private readonly block = new Map<string, Uint8Array | null>();
  private readonly pending = new Map<string, Uint8Array | null>();
  readonly changes: StateChange[] = [];
  /** Set while a chunk is applied with a recorder (runtime/chunk-read-recorder.ts). */
  readObserver: StateReadObserver | undefined;

  /** @param baseHeight the height whose committed state this block builds on (-1 for an empty state). */
  constructor(
    private readonly base: VersionedState | undefined,
    readonly baseHeight: number,
  ) {}

  get(key: Uint8Array): Uint8Array | undefined {
    const k = asMapKey(key);
    const pending = this.pending.get(k);
    if (pending !== undefined) return pending ?? undefined;
    const block = this.block.get(k);
    if (block !== undefined) return block ?? undefined;
    if (!this.base || this.baseHeight < 0) return undefined;
    const value = this.base.get(key, this.baseHeight);
    this.readObserver?.read(key, value);
    return value;
  }

  /** A read nearcore never makes (a check of Shadebox's own older layouts): answered like `get`, but not told to
   * the read observer, so it records nothing in the chunk's storage proof. */
  getUnrecorded(key: Uint8Array): Uint8Array | undefined {
    const observer = this.readObserver;
    this.readObserver = undefined;
    try {
      return this.get(key);
    } finally {
      this.readObserver = observer;
    }
  }

  /** A value of `accountId`'s contract data, under the key the contract names (its state key is built here). */
  contractData(accountId: string, key: Uint8Array): Uint8Array | undefined {
    return this.get(contractDataKey(accountId, key));
  }

  /** Whether this chunk already wrote or removed `key` (pending or committed): nearcore's `TrieUpdate` answers
   * such a key from its overlay, without a trie lookup (contract storage pays no trie nodes for it). */
  inOverlay(key: Uint8Array): boolean {
    const k = asMapKey(key);
    return this.pending.has(k) || this.block.has(k);
  }

  has(key: Uint8Array): boolean {
    const k = asMapKey(key);
    const pending = this.pending.get(k);
    if (pending !== undefined) return pending !== null;
    const block = this.block.get(k);
    if (block !== undefined) return block !== null;
    if (!this.base || this.baseHeight < 0) return false;
    this.readObserver?.has(key);
    return this.base.get(key, this.baseHeight) !== undefined;
  }

  set(key: Uint8Array, value: Uint8Array): void {
    this.pending.set(asMapKey(key), value);
  }

  remove(key: Uint8Array): void {
    this.pending.set(asMapKey(key), null);
  }

  /** Every live key starting with `prefix`, ascending, with the overlays applied. */
  scan(prefix: Uint8Array): Array<{ key: Uint8Array; value: Uint8Array }> {
    const merged = new Map<string, Uint8Array | null>();
    if (this.base && this.baseHeight >= 0) {
      this.readObserver?.scan(prefix);
      for (const { key, value } of this.base.scan(prefix, this.baseHeight)) merged.set(asMapKey(key), value);
    }
    const p = asMapKey(prefix);
    for (const layer of [this.block, this.pending]) {
      for (const [k, v] of layer) if (k.startsWith(p)) merged.set(k, v);
    }
    const out: Array<{ key: Uint8Array; value: Uint8Array }> = [];
    for (const k of [...merged.keys()].sort()) {
      const v = merged.get(k);
      if (v) out.push({ key: fromMapKey(k), value: v });
    }
    return out;
  }

  get hasPending(): boolean {
    return this.pending.size > 0;
  }

  commit(cause: StateChangeCause): void {
    for (const [k, v] of this.pending) {
      this.block.set(k, v);
      this.changes.push({ key: fromMapKey(k), value: v, cause });
    }
    this.pending.clear();
  }

  rollback(): void {
    this.pending.clear();
  }

  /** The block's net writes (last value per key). Pending writes must have been committed or rolled back. */
  finish(): Array<[Uint8Array, Uint8Array | null]> {
    if (this.pending.size > 0) throw new Error('StateUpdate.finish with uncommitted writes');
    return [...this.block].map(([k, v]) => [fromMapKey(k), v]);
  }
}

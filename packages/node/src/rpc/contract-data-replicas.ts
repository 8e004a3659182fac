/**
 * The contracts' data that the view workers hold (rpc/view-worker-pool.ts), as the RPC's thread tracks it: for
 * each contract, its data read once at a block, packed (rpc/contract-data-replica.ts) and given a version, and
 * the heights at which that copy is the contract's data. A worker is sent a version once and keeps it; a job
 * names the version, so a contract with 32,768 entries costs one copy, not one per view.
 *
 * A copy read at height `from` holds for every height from `from` up to the last block that changed none of the
 * contract's data keys: each new block's state changes (every key a block writes is in them) are checked
 * against the contract's data prefix as the block is committed, and the first block that writes one ends the
 * copy's range. A view at a height outside the range runs on the RPC's thread (or, at a newer height, reads the
 * data again once enough views missed: a contract written every block is not re-read every block). A rewind
 * drops every copy. The copies are bounded by bytes (`budgetBytes`, the packed keys and values; a worker holds
 * about twice that with its index), least recently used first out; a contract with more data runs on the RPC's
 * thread.
 */
import type { Chain } from '../chain/chain.js';
import type { BlockRecord } from '../chain/records.js';
import { contractDataPrefix } from '../state/state-keys.js';
import { EntryPacker } from './contract-data-replica.js';

/** A copy of one contract's data, as the RPC's thread knows it. */
export interface TrackedReplica {
  accountId: string;
  version: number;
  /** The packed entries (what a worker is sent). */
  packed: Uint8Array;
  entries: number;
  /** The copy is the contract's data at every height from `from` to `checkedTo`. */
  from: number;
  checkedTo: number;
  /** A block after `checkedTo` changed the contract's data: the range ends there. */
  stale: boolean;
  /** Views that found the copy stale since it went stale. */
  misses: number;
}

/** A contract found too big for the budget, and the views until it is measured again. */
interface TooLarge {
  tooLarge: true;
  recheckIn: number;
}

/** Views at a newer height than a stale copy before the data is read again: one per 64 entries, at least 1. */
const missesBeforeReread = (entries: number) => Math.max(1, entries >> 6);
/** A copy is only made for a block this close to the head (its later blocks' changes are read at once). */
const MAX_LAG = 16;
/** Views of a too-large contract before its size is measured again. */
const RECHECK_TOO_LARGE = 4096;

export const DEFAULT_REPLICA_BUDGET_BYTES = 4 * 1024 * 1024;

export class ContractDataReplicas {
  /** By account, least recently used first. */
  private readonly byAccount = new Map<string, TrackedReplica | TooLarge>();
  private bytes = 0;
  private nextVersion = 1;
  private chain: Chain | undefined;
  /** Copies read, and copies dropped (budget or rewind). */
  readonly stats = { reads: 0, dropped: 0 };

  constructor(
    readonly budgetBytes: number,
    /** Called when a copy is dropped, so the workers drop theirs. */
    private readonly onDrop: (accountId: string) => void,
  ) {}

  /** Packed bytes held. */
  get heldBytes(): number {
    return this.bytes;
  }

  /** The copy of `accountId`'s data that is its data at `block`, read now if needed; undefined when the view
   * should run on the RPC's thread. */
  at(chain: Chain, block: BlockRecord, accountId: string): TrackedReplica | undefined {
    this.follow(chain);
    const known = this.byAccount.get(accountId);
    const height = block.height;
    if (known !== undefined) {
      if ('tooLarge' in known) {
        if (--known.recheckIn > 0) return undefined;
        this.byAccount.delete(accountId);
      } else {
        if (height >= known.from && height <= known.checkedTo) {
          // Most recently used last.
          this.byAccount.delete(accountId);
          this.byAccount.set(accountId, known);
          return known;
        }
        if (height < known.from || !known.stale) return undefined;
        if (++known.misses < missesBeforeReread(known.entries)) return undefined;
      }
    }
    return this.read(chain, height, accountId);
  }

  /** Whether `replica` is still the tracked copy of its contract (not replaced or dropped). */
  holds(replica: TrackedReplica): boolean {
    return this.byAccount.get(replica.accountId) === replica;
  }

  /** Drops every copy (a rewind, the pool closing). */
  clear(): void {
    for (const [accountId, entry] of [...this.byAccount]) this.drop(accountId, entry);
  }

  private read(chain: Chain, height: number, accountId: string): TrackedReplica | undefined {
    const head = chain.head.height;
    if (head - height > MAX_LAG) return undefined;
    const prefix = contractDataPrefix(accountId);
    const packer = new EntryPacker();
    for (const entry of chain.state.scan(prefix, height)) {
      if (packer.size + 8 + entry.key.length + entry.value.length > this.budgetBytes) {
        const old = this.byAccount.get(accountId);
        if (old) this.drop(accountId, old);
        this.byAccount.set(accountId, { tooLarge: true, recheckIn: RECHECK_TOO_LARGE });
        return undefined;
      }
      packer.add(entry.key, entry.value);
    }
    const bytes = packer.size;
    const old = this.byAccount.get(accountId);
    if (old) this.drop(accountId, old);
    for (const [other, entry] of this.byAccount) {
      if (this.bytes + bytes <= this.budgetBytes) break;
      this.drop(other, entry);
    }
    const replica: TrackedReplica = {
      accountId,
      version: this.nextVersion++,
      packed: packer.finish(),
      entries: packer.count,
      from: height,
      checkedTo: height,
      stale: false,
      misses: 0,
    };
    this.stats.reads++;
    this.bytes += bytes;
    this.byAccount.set(accountId, replica);
    // The blocks already made after `height` (a view at `final` is two behind the head).
    for (let h = height + 1; h <= head && !replica.stale; h++) this.checkBlock(chain, h, [replica]);
    return replica;
  }

  private drop(accountId: string, entry: TrackedReplica | TooLarge): void {
    this.byAccount.delete(accountId);
    if ('tooLarge' in entry) return;
    this.bytes -= entry.packed.length;
    this.stats.dropped++;
    this.onDrop(accountId);
  }

  /** Listens to the chain's new blocks and rewinds (once: every chain a pool serves shares one store). */
  private follow(chain: Chain): void {
    if (this.chain) return;
    this.chain = chain;
    chain.on('block', (record) => this.onBlock(chain, record));
    chain.on('rewind', () => this.clear());
  }

  private onBlock(chain: Chain, record: BlockRecord): void {
    const live: TrackedReplica[] = [];
    for (const entry of this.byAccount.values()) if (!('tooLarge' in entry) && !entry.stale) live.push(entry);
    if (live.length === 0) return;
    // Heights skipped since (`sandbox_fast_forward`) have no block and change nothing.
    const from = Math.min(...live.map((r) => r.checkedTo)) + 1;
    if (record.height - from > MAX_LAG) {
      // A long jump (a fast-forward of many heights): not read height by height; the copies end here.
      for (const replica of live) replica.stale = true;
      return;
    }
    for (let h = from; h <= record.height; h++)
      this.checkBlock(
        chain,
        h,
        live.filter((r) => !r.stale && r.checkedTo < h),
      );
  }

  /** Extends each copy's range over block `height`, or marks it stale when the block wrote its data. */
  private checkBlock(chain: Chain, height: number, replicas: TrackedReplica[]): void {
    if (replicas.length === 0) return;
    const changes = chain.stateChanges(height);
    if (changes === undefined) {
      // No block at a skipped height changes nothing; a block whose changes cannot be read ends every range.
      const skipped = chain.blockByHeight(height) === undefined;
      for (const replica of replicas) {
        if (skipped) replica.checkedTo = height;
        else replica.stale = true;
      }
      return;
    }
    const keys = changes.map((c) => Buffer.from(c.key, 'base64').toString('latin1'));
    for (const replica of replicas) {
      const prefix = Buffer.from(contractDataPrefix(replica.accountId)).toString('latin1');
      if (keys.some((k) => k.startsWith(prefix))) replica.stale = true;
      else replica.checkedTo = height;
    }
  }
}

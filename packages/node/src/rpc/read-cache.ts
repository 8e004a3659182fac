/**
 * Answers of read-only methods, kept until the head moves. A read answer depends only on the method, its
 * params and the chain (whose only change is a new block), so an identical request — a wallet or an agent
 * polling an account at `final` — is answered from here until the next block. Errors are kept too (they are
 * as deterministic), but never internal errors.
 */

/** Methods whose answer is a function of (params, head). */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set([
  'query',
  'block',
  'chunk',
  'gas_price',
  'EXPERIMENTAL_receipt',
  'EXPERIMENTAL_protocol_config',
  'EXPERIMENTAL_genesis_config',
  'genesis_config',
  'validators',
  'changes',
  'EXPERIMENTAL_changes',
  'EXPERIMENTAL_changes_in_block',
  'block_effects',
]);

/** An answer without its request id: the envelope is rebuilt around it for each request. */
export interface CachedAnswer {
  status: number;
  key: 'result' | 'error';
  payload: string;
}

const MAX_ENTRIES = 4096;

export interface ReadCacheOptions {
  /** Keep an answer only when its request comes a second time at the head (the first time only its key's hash
   * is noted): a stream of distinct requests then leaves no answers behind, which the garbage collector would
   * otherwise move to the old generation and collect in full collections (a view worker's cache). */
  admitOnRepeat?: boolean;
}

export class ReadCache {
  private head = '';
  private readonly entries = new Map<string, CachedAnswer>();
  /** With `admitOnRepeat`: the hashes of the keys seen once at this head. */
  private readonly seen: SeenHashes | undefined;

  constructor(options: ReadCacheOptions = {}) {
    this.seen = options.admitOnRepeat ? new SeenHashes(MAX_ENTRIES) : undefined;
  }

  /** The answer cached for `key` while `headHash` is the head; a new head empties the cache first. Keyed by
   * hash, not height, so a head replaced at the same height (a revert) is a new head too. */
  get(key: string, headHash: string): CachedAnswer | undefined {
    if (headHash !== this.head) {
      this.entries.clear();
      this.seen?.clear();
      this.head = headHash;
      return undefined;
    }
    return this.entries.get(key);
  }

  set(key: string, headHash: string, answer: CachedAnswer): void {
    if (headHash !== this.head) return;
    if (this.seen !== undefined) {
      if (this.seen.addFirst(hashOf(key))) return;
    }
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, answer);
  }

  static keyOf(method: string, params: unknown): string {
    return `${method}\u0000${JSON.stringify(params)}`;
  }
}

/**
 * A set of 32-bit hashes in one typed array (open addressing, linear probing, at most half full), emptied
 * when it holds `capacity`. Unlike a `Set` of numbers it allocates nothing per key: most hashes are beyond
 * V8's small integers, so a `Set` boxes each one, and a long-lived `Set`'s regrown tables are made in the old
 * generation.
 */
export class SeenHashes {
  private readonly slots: Uint32Array;
  private readonly mask: number;
  private count = 0;

  constructor(private readonly capacity: number) {
    let size = 2;
    while (size < capacity * 2) size *= 2;
    this.slots = new Uint32Array(size);
    this.mask = size - 1;
  }

  /** Notes `hash`; true when it was not there yet. */
  addFirst(hash: number): boolean {
    // Zero marks an empty slot, so hash 0 is stored as 1 (a collision only caches an answer sooner).
    const stored = hash >>> 0 || 1;
    let slot = stored & this.mask;
    for (;;) {
      const found = this.slots[slot]!;
      if (found === stored) return false;
      if (found === 0) break;
      slot = (slot + 1) & this.mask;
    }
    if (this.count >= this.capacity) {
      this.clear();
      slot = stored & this.mask;
    }
    this.slots[slot] = stored;
    this.count++;
    return true;
  }

  clear(): void {
    if (this.count === 0) return;
    this.slots.fill(0);
    this.count = 0;
  }
}

/** FNV-1a over the key's UTF-16 code units: a key seen before (a collision only caches an answer sooner). */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

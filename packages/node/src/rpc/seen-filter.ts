/**
 * Which 32-bit hashes were noted since the last reset, in a table of fixed size: each hash has two candidate
 * slots (from two of its bit ranges); a lookup checks both, a note fills an empty one (a slot of an older
 * generation) or replaces one of the two, alternately. A reset starts a new generation instead of clearing.
 *
 * It stands in for a `Set<number>` that a stream of distinct keys would fill and clear thousands of times a
 * second (a view worker's read cache, rpc/read-cache.ts): every growth and clear of a Set replaces its hash
 * table, and a replaced table links to the next, so once one of them has survived two young collections V8
 * promotes the chain to the old generation. This allocates nothing after construction. Being a cache's
 * admission filter, it may forget a hash (both slots taken by others) or take another's for it (the same hash):
 * either only changes when an answer is kept, never what it is.
 */
export class SeenFilter {
  private readonly hashes: Uint32Array;
  private readonly stamps: Uint32Array;
  private readonly mask: number;
  private readonly secondShift: number;
  private generation = 1;
  private alternate = 0;

  /** `slotsLog2`: the table holds 2^slotsLog2 hashes (at most 2^16, so the two slots come from disjoint bits). */
  constructor(slotsLog2: number) {
    if (!Number.isInteger(slotsLog2) || slotsLog2 < 1 || slotsLog2 > 16) {
      throw new RangeError(`slotsLog2 must be an integer in 1..16, not ${slotsLog2}`);
    }
    this.hashes = new Uint32Array(1 << slotsLog2);
    this.stamps = new Uint32Array(1 << slotsLog2);
    this.mask = (1 << slotsLog2) - 1;
    this.secondShift = slotsLog2;
  }

  /** True when `hash` was noted since the last reset; otherwise notes it and returns false. */
  seenOrNote(hash: number): boolean {
    const h = hash >>> 0;
    const a = h & this.mask;
    const b = (h >>> this.secondShift) & this.mask;
    const { hashes, stamps, generation } = this;
    const aLive = stamps[a] === generation;
    const bLive = stamps[b] === generation;
    if ((aLive && hashes[a] === h) || (bLive && hashes[b] === h)) return true;
    const slot = !aLive ? a : !bLive ? b : (this.alternate ^= 1) === 0 ? a : b;
    hashes[slot] = h;
    stamps[slot] = generation;
    return false;
  }

  /** Forgets every hash noted so far. */
  reset(): void {
    this.generation = (this.generation + 1) >>> 0;
    if (this.generation === 0) {
      // After 2^32 resets a stamp of the first generations could come back: start the table afresh.
      this.stamps.fill(0);
      this.generation = 1;
    }
  }
}

/**
 * The views a worker is running, by the id its messages carry: a fixed array of slots, the id being the slot's
 * index, with a stack of the free ones. Not a `Map`, on purpose. A Map that gains and loses entries thousands of
 * times a second (a view's whole life is a millisecond) replaces its hash table again and again, and V8 leaves in
 * each replaced table a link to the next one and the entries it held. Once one of those tables has lived long
 * enough to be promoted, the young generation's collections treat the tables after it as live (they are
 * referenced from the old generation), so every table and every view it held (the request's text, its promise,
 * its answer) was promoted too: about 1 KB per view, 40 MB a second on the RPC's thread under the benchmark's
 * views, reclaimed only by full collections of 20-28 ms every second (bench/README.md at e5cd03a, metric 5). Slots allocate
 * nothing per view.
 */
export class InFlightSlots<T> {
  private readonly values: Array<T | undefined>;
  /** Free slot indexes; the top is at `free[freeCount - 1]`. */
  private readonly free: Int32Array;
  private freeCount: number;

  constructor(readonly capacity: number) {
    this.values = new Array<T | undefined>(capacity).fill(undefined);
    this.free = new Int32Array(capacity);
    // Lowest index on top, so ids are handed out 0, 1, 2 … on an idle table.
    for (let i = 0; i < capacity; i++) this.free[i] = capacity - 1 - i;
    this.freeCount = capacity;
  }

  /** Values held now. */
  get size(): number {
    return this.capacity - this.freeCount;
  }

  /** Holds `value` in a free slot and returns its id; throws when every slot is taken (callers check `size`). */
  add(value: T): number {
    if (this.freeCount === 0) throw new RangeError(`all ${this.capacity} in-flight slots are taken`);
    const id = this.free[--this.freeCount];
    this.values[id] = value;
    return id;
  }

  /** The value of slot `id`, if it holds one. */
  get(id: number): T | undefined {
    return Number.isInteger(id) && id >= 0 && id < this.capacity ? this.values[id] : undefined;
  }

  /** Empties slot `id` and returns what it held. */
  take(id: number): T | undefined {
    const value = this.get(id);
    if (value === undefined) return undefined;
    this.values[id] = undefined;
    this.free[this.freeCount++] = id;
    return value;
  }

  /** Empties every slot; returns what they held. */
  takeAll(): T[] {
    const taken: T[] = [];
    for (let id = 0; id < this.capacity; id++) {
      const value = this.take(id);
      if (value !== undefined) taken.push(value);
    }
    return taken;
  }
}

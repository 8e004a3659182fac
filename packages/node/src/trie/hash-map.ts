/**
 * A map keyed by 32-byte hashes without turning them into strings: buckets by the hash's first 30 bits (a small
 * integer, JS maps' fastest key; sha256 outputs are uniform), chained on the rare shared prefix. Node and value
 * lookups, reference-count deltas, the recorder and the accounting cache all key by hash, so this is on every
 * path of the trie.
 */
interface Entry<V> {
  hash: Uint8Array;
  value: V;
  next: Entry<V> | undefined;
}

function prefix(hash: Uint8Array): number {
  return hash[0] | (hash[1] << 8) | (hash[2] << 16) | ((hash[3] & 0x3f) << 24);
}

function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class CryptoHashMap<V> {
  readonly #buckets = new Map<number, Entry<V>>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(hash: Uint8Array): V | undefined {
    for (let e = this.#buckets.get(prefix(hash)); e !== undefined; e = e.next) {
      if (sameHash(e.hash, hash)) return e.value;
    }
    return undefined;
  }

  has(hash: Uint8Array): boolean {
    for (let e = this.#buckets.get(prefix(hash)); e !== undefined; e = e.next) {
      if (sameHash(e.hash, hash)) return true;
    }
    return false;
  }

  set(hash: Uint8Array, value: V): void {
    const key = prefix(hash);
    const head = this.#buckets.get(key);
    for (let e = head; e !== undefined; e = e.next) {
      if (sameHash(e.hash, hash)) {
        e.value = value;
        return;
      }
    }
    this.#buckets.set(key, { hash, value, next: head });
    this.#size++;
  }

  delete(hash: Uint8Array): boolean {
    const key = prefix(hash);
    let previous: Entry<V> | undefined;
    for (let e = this.#buckets.get(key); e !== undefined; previous = e, e = e.next) {
      if (!sameHash(e.hash, hash)) continue;
      if (previous !== undefined) previous.next = e.next;
      else if (e.next !== undefined) this.#buckets.set(key, e.next);
      else this.#buckets.delete(key);
      this.#size--;
      return true;
    }
    return false;
  }

  *entries(): IterableIterator<[Uint8Array, V]> {
    for (const head of this.#buckets.values()) {
      for (let e: Entry<V> | undefined = head; e !== undefined; e = e.next) yield [e.hash, e.value];
    }
  }

  *values(): IterableIterator<V> {
    for (const head of this.#buckets.values()) {
      for (let e: Entry<V> | undefined = head; e !== undefined; e = e.next) yield e.value;
    }
  }
}

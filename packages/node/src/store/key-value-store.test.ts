import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type KeyValueStore, MAX_KEY_LENGTH, WriteBatch, type WriteOp } from './key-value-store.js';
import { openLmdbStore } from './lmdb-store.js';
import { openMemoryStore } from './memory-store.js';
import { seededRandom as random } from './seeded-random.js';
import { InvalidBytesError, InvalidColumnError, KeyTooLongError, StoreClosedError } from './store-errors.js';

const tempDirs: string[] = [];
after(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shadebox-store-'));
  tempDirs.push(dir);
  return dir;
}

interface Factory {
  kind: 'lmdb' | 'memory';
  open(): KeyValueStore;
}

const factories: Factory[] = [
  { kind: 'memory', open: () => openMemoryStore() },
  { kind: 'lmdb', open: () => openLmdbStore(tempDir()) },
];

const b = (...bytes: number[]) => Uint8Array.from(bytes);
const s = (text: string) => new TextEncoder().encode(text);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

function compareBytes(x: Uint8Array, y: Uint8Array): number {
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

function commit(store: KeyValueStore, build: (batch: WriteBatch) => void): void {
  const batch = new WriteBatch();
  build(batch);
  store.commit(batch);
}

function entries(iterable: Iterable<{ key: Uint8Array; value: Uint8Array }>): [string, string][] {
  return [...iterable].map(({ key, value }) => [hex(key), hex(value)]);
}

/** Deterministic pseudo-random numbers (mulberry32). */

describe('WriteBatch', () => {
  it('counts the bytes of the keys and values it puts', () => {
    const batch = new WriteBatch();
    assert.equal(batch.putBytes, 0);
    batch.put(1, new Uint8Array(3), new Uint8Array(10));
    batch.delete(1, new Uint8Array(5));
    batch.put(2, new Uint8Array(1), new Uint8Array(5000));
    assert.equal(batch.putBytes, 5014);
    batch.clear();
    assert.equal(batch.putBytes, 0);
  });

  it('records operations in order and validates them', () => {
    const batch = new WriteBatch();
    batch.put(1, b(1), b(2));
    batch.delete(2, b(3));
    assert.equal(batch.size, 2);
    const ops = [...batch];
    assert.deepEqual(
      ops.map((op: WriteOp) => op.kind),
      ['put', 'delete'],
    );
    assert.throws(() => batch.put(256, b(1), b(1)), InvalidColumnError);
    assert.throws(() => batch.put(-1, b(1), b(1)), InvalidColumnError);
    assert.throws(() => batch.put(1.5, b(1), b(1)), InvalidColumnError);
    assert.throws(() => batch.put(1, 'x' as unknown as Uint8Array, b(1)), InvalidBytesError);
    assert.throws(() => batch.put(1, b(1), null as unknown as Uint8Array), InvalidBytesError);
    assert.throws(() => batch.delete(1, new Uint8Array(MAX_KEY_LENGTH + 1)), KeyTooLongError);
    assert.equal(batch.size, 2);
    batch.clear();
    assert.equal(batch.size, 0);
  });
});

for (const factory of factories) {
  describe(`KeyValueStore (${factory.kind})`, () => {
    it('has the right kind', async () => {
      const store = factory.open();
      assert.equal(store.kind, factory.kind);
      await store.close();
    });

    it('gets, puts, overwrites and deletes', async () => {
      const store = factory.open();
      assert.equal(store.get(0, s('a')), undefined);
      assert.equal(store.has(0, s('a')), false);
      commit(store, (batch) => {
        batch.put(0, s('a'), s('one'));
        batch.put(0, s('b'), s('two'));
        batch.put(0, s('empty'), new Uint8Array(0));
        batch.put(0, new Uint8Array(0), s('empty key'));
      });
      assert.deepEqual(store.get(0, s('a')), s('one'));
      assert.deepEqual(store.get(0, s('b')), s('two'));
      assert.deepEqual(store.get(0, s('empty')), new Uint8Array(0), 'an empty value is present');
      assert.equal(store.has(0, s('empty')), true);
      assert.deepEqual(store.get(0, new Uint8Array(0)), s('empty key'));
      assert.equal(store.has(0, s('c')), false);
      commit(store, (batch) => {
        batch.put(0, s('a'), s('uno'));
        batch.delete(0, s('b'));
        batch.delete(0, s('never there'));
      });
      assert.deepEqual(store.get(0, s('a')), s('uno'));
      assert.equal(store.get(0, s('b')), undefined);
      assert.equal(store.has(0, s('b')), false);
      assert.throws(() => store.get(300, s('a')), InvalidColumnError);
      await store.close();
    });

    it('applies the operations of a batch in order (the last write of a key wins)', async () => {
      const store = factory.open();
      commit(store, (batch) => {
        batch.put(0, s('x'), s('1'));
        batch.delete(0, s('x'));
        batch.put(0, s('y'), s('1'));
        batch.delete(0, s('y'));
        batch.put(0, s('y'), s('2'));
      });
      assert.equal(store.get(0, s('x')), undefined);
      assert.deepEqual(store.get(0, s('y')), s('2'));
      await store.close();
    });

    it('returns values that stay valid after later reads (no shared read buffer)', async () => {
      const store = factory.open();
      const big = new Uint8Array(300_000).map((_, i) => i % 251);
      commit(store, (batch) => {
        batch.put(0, s('a'), s('first value'));
        batch.put(0, s('b'), s('second, longer value'));
        batch.put(0, s('big'), big);
      });
      const a = store.get(0, s('a'));
      const bigRead = store.get(0, s('big'));
      const bRead = store.get(0, s('b'));
      store.has(0, s('a'));
      for (const _ of store.range(0)) {
        // reading through a cursor must not disturb earlier results either
      }
      assert.deepEqual(a, s('first value'));
      assert.deepEqual(bRead, s('second, longer value'));
      assert.deepEqual(bigRead, big);
      await store.close();
    });

    it('copies keys and values in and out', async () => {
      const store = factory.open();
      const key = s('key');
      const value = s('value');
      const bufferValue = Buffer.from('buffer value');
      const batch = new WriteBatch();
      batch.put(0, key, value);
      batch.put(0, s('buf'), bufferValue);
      key[0] = 0; // the batch holds its own copy
      value[0] = 0;
      bufferValue[0] = 0;
      store.commit(batch);
      for (const op of batch) if (op.kind === 'put') op.value.fill(9); // mutating the batch after commit
      assert.deepEqual(store.get(0, s('key')), s('value'));
      assert.deepEqual(store.get(0, s('buf')), s('buffer value'));
      const read = store.get(0, s('key'));
      assert.ok(read);
      assert.equal(Object.getPrototypeOf(read), Uint8Array.prototype, 'a plain Uint8Array, not a Buffer');
      read.fill(0);
      assert.deepEqual(store.get(0, s('key')), s('value'));
      for (const entry of store.range(0)) {
        assert.equal(Object.getPrototypeOf(entry.key), Uint8Array.prototype);
        assert.equal(Object.getPrototypeOf(entry.value), Uint8Array.prototype);
        entry.key.fill(0);
        entry.value.fill(0);
      }
      assert.deepEqual(entries(store.range(0)), [
        [hex(s('buf')), hex(s('buffer value'))],
        [hex(s('key')), hex(s('value'))],
      ]);
      // Buffer inputs are copied too (Buffer#slice would share memory).
      const bufferKey = Buffer.from('bk');
      const buffered = new WriteBatch();
      buffered.put(0, bufferKey, Buffer.from('bv'));
      store.commit(buffered);
      bufferKey.fill(0);
      assert.deepEqual(store.get(0, s('bk')), s('bv'));
      await store.close();
    });

    it('scans in byte order with start, end, reverse and limit', async (t) => {
      t.diagnostic('seed 7 (fixed)');
      const store = factory.open();
      const next = random(7);
      const fixed = [
        b(),
        b(0),
        b(0, 0),
        b(0, 0xff),
        b(1),
        b(0x7f),
        b(0x80),
        b(0xff),
        b(0xff, 0),
        b(0xff, 0xff),
        s('alice'),
        s('alice.near'),
        s('alicf'),
      ];
      const keys = new Map<string, Uint8Array>();
      for (const key of fixed) keys.set(hex(key), key);
      while (keys.size < 200) {
        const key = Uint8Array.from({ length: Math.floor(next() * 5) }, () =>
          next() < 0.3 ? (next() < 0.5 ? 0 : 0xff) : Math.floor(next() * 256),
        );
        keys.set(hex(key), key);
      }
      const sorted = [...keys.values()].sort(compareBytes);
      commit(store, (batch) => {
        for (const key of sorted) batch.put(3, key, Uint8Array.of(key.length));
        batch.put(2, b(0xff, 0xff, 0xff), b(1)); // neighbouring columns must not leak in
        batch.put(4, b(), b(1));
      });
      const bounds = [undefined, ...fixed, ...sorted.slice(0, 20), b(0xff, 0xff, 0xff), b(0x55, 0x55)];
      for (let round = 0; round < 400; round++) {
        const pick = () => bounds[Math.floor(next() * bounds.length)];
        const start = pick();
        const end = pick();
        const reverse = next() < 0.5;
        const limit = next() < 0.5 ? undefined : Math.floor(next() * 10);
        let expected = sorted.filter(
          (key) =>
            (start === undefined || compareBytes(key, start) >= 0) &&
            (end === undefined || compareBytes(key, end) < 0),
        );
        if (reverse) expected.reverse();
        if (limit !== undefined) expected = expected.slice(0, limit);
        const options = { start, end, reverse, limit };
        assert.deepEqual(
          [...store.range(3, options)].map((entry) => hex(entry.key)),
          expected.map(hex),
          JSON.stringify({ start: start && hex(start), end: end && hex(end), reverse, limit }),
        );
      }
      assert.deepEqual(
        [...store.range(3)].map((entry) => hex(entry.key)),
        sorted.map(hex),
      );
      assert.deepEqual(
        [...store.range(3)].map((entry) => entry.value[0]),
        sorted.map((key) => key.length),
      );
      assert.throws(() => store.range(3, { limit: -1 }), RangeError);
      await store.close();
    });

    it('keeps columns apart, including the first and the last column', async () => {
      const store = factory.open();
      const columns = [0, 1, 2, 254, 255];
      commit(store, (batch) => {
        for (const column of columns) {
          batch.put(column, b(), b(column));
          batch.put(column, s('k'), b(column));
          batch.put(column, b(0xff, 0xff), b(column));
          batch.put(column, b(0), b(column));
        }
      });
      for (const column of columns) {
        assert.deepEqual(store.get(column, s('k')), b(column));
        const keys = [hex(b()), hex(b(0)), hex(s('k')), hex(b(0xff, 0xff))];
        assert.deepEqual(
          [...store.range(column)].map((entry) => hex(entry.key)),
          keys,
        );
        assert.deepEqual(
          [...store.range(column, { reverse: true })].map((entry) => hex(entry.key)),
          [...keys].reverse(),
        );
        assert.ok([...store.range(column)].every((entry) => entry.value[0] === column));
      }
      assert.equal(store.get(3, s('k')), undefined);
      assert.deepEqual([...store.range(3)], []);
      assert.deepEqual([...store.range(253, { reverse: true })], []);
      commit(store, (batch) => batch.delete(1, s('k')));
      assert.equal(store.get(1, s('k')), undefined);
      assert.deepEqual(store.get(0, s('k')), b(0));
      assert.deepEqual(store.get(2, s('k')), b(2));
      await store.close();
    });

    it('never applies a batch whose building threw', async () => {
      const store = factory.open();
      commit(store, (batch) => batch.put(0, s('a'), s('1')));
      assert.throws(() =>
        commit(store, (batch) => {
          batch.put(0, s('a'), s('2'));
          batch.put(0, s('b'), s('2'));
          throw new Error('failed while building');
        }),
      );
      assert.deepEqual(store.get(0, s('a')), s('1'));
      assert.equal(store.get(0, s('b')), undefined);
      await store.close();
    });

    it('applies all of a batch or nothing when the commit fails midway', async () => {
      const store = factory.open();
      commit(store, (batch) => {
        batch.put(0, s('a'), s('1'));
        batch.put(0, s('gone'), s('1'));
      });
      // A batch whose operations fail after some were already applied by the store.
      class FailingBatch extends WriteBatch {
        override *[Symbol.iterator](): Generator<WriteOp> {
          yield* super[Symbol.iterator]();
          throw new Error('failure in the middle of the commit');
        }
      }
      const failing = new FailingBatch();
      failing.put(0, s('a'), s('2'));
      failing.delete(0, s('gone'));
      for (let i = 0; i < 100; i++) failing.put(1, Uint8Array.of(i), s('x'));
      assert.throws(() => store.commit(failing), /failure in the middle/);
      class InvalidBatch extends WriteBatch {
        override *[Symbol.iterator](): Generator<WriteOp> {
          yield* super[Symbol.iterator]();
          yield { kind: 'put', column: 0, key: new Uint8Array(MAX_KEY_LENGTH + 1), value: b(1) };
        }
      }
      const invalid = new InvalidBatch();
      invalid.put(0, s('a'), s('3'));
      assert.throws(() => store.commit(invalid), KeyTooLongError);
      assert.deepEqual(store.get(0, s('a')), s('1'));
      assert.deepEqual(store.get(0, s('gone')), s('1'));
      assert.deepEqual([...store.range(1)], []);
      // The store is still usable, and a good commit is entirely visible afterwards.
      const batch = new WriteBatch();
      for (let i = 0; i < 1000; i++) batch.put(1, Uint8Array.of(i >> 8, i & 0xff), Uint8Array.of(i & 0xff));
      batch.delete(0, s('gone'));
      store.commit(batch);
      assert.equal([...store.range(1)].length, 1000);
      assert.equal(store.get(0, s('gone')), undefined);
      await store.close();
    });

    it('accepts keys up to MAX_KEY_LENGTH bytes and large values', async () => {
      const store = factory.open();
      const longKey = new Uint8Array(MAX_KEY_LENGTH).fill(0xab);
      const large = new Uint8Array(5_000_000).fill(7);
      commit(store, (batch) => {
        batch.put(9, longKey, s('long'));
        batch.put(9, s('large'), large);
      });
      assert.deepEqual(store.get(9, longKey), s('long'));
      assert.deepEqual(store.get(9, s('large')), large);
      assert.deepEqual(
        [...store.range(9, { start: longKey })].map((entry) => entry.key.length),
        [MAX_KEY_LENGTH],
      );
      await store.close();
    });

    it('keeps every byte of keys and values of every size, whatever was written before them', async () => {
      const store = factory.open();
      const sizes = [70_000, 0, 1, 4_095, 4_096, 4_097, 65_536, 65_537, 3, 1_000, 200_000, 2];
      const values = sizes.map((n, i) => new Uint8Array(n).map((_, j) => (j * 31 + i * 7) & 0xff));
      const keys = sizes.map((n, i) => new Uint8Array(Math.min(n, MAX_KEY_LENGTH - 1) + 1).fill(255 - i));
      commit(store, (batch) => {
        for (let i = 0; i < sizes.length; i++) batch.put(3, keys[i], values[i]);
      });
      for (let i = 0; i < sizes.length; i++)
        assert.deepEqual(store.get(3, keys[i]), values[i], `${sizes[i]} bytes`);
      const scanned = new Map([...store.range(3)].map((e) => [e.key.length * 256 + e.key[0], e.value]));
      for (let i = 0; i < sizes.length; i++) {
        assert.deepEqual(scanned.get(keys[i].length * 256 + keys[i][0]), values[i]);
      }
      await store.close();
    });

    it('orders keys written in any order, before and after a column is first scanned', async () => {
      // The memory store orders a column only once it is scanned; writes before and after must both show.
      const store = factory.open();
      const next = random(11);
      const model = new Map<string, Uint8Array>();
      const key = () =>
        Uint8Array.from({ length: 1 + Math.floor(next() * 3) }, () => Math.floor(next() * 256));
      const round = (count: number) =>
        commit(store, (batch) => {
          for (let i = 0; i < count; i++) {
            const k = key();
            if (next() < 0.3) {
              batch.delete(7, k);
              model.delete(hex(k));
            } else {
              batch.put(7, k, k);
              model.set(hex(k), k);
            }
          }
        });
      const expected = () => [...model.values()].sort(compareBytes).map(hex);
      round(500);
      assert.deepEqual(store.get(7, [...model.values()][0]), [...model.values()][0]);
      assert.deepEqual(
        [...store.range(7)].map((e) => hex(e.key)),
        expected(),
      );
      round(500);
      assert.deepEqual(
        [...store.range(7)].map((e) => hex(e.key)),
        expected(),
      );
      assert.deepEqual(
        [...store.range(7, { reverse: true, limit: 5 })].map((e) => hex(e.key)),
        expected().reverse().slice(0, 5),
      );
      await store.close();
    });

    it('scans a consistent snapshot while commits happen', async () => {
      const store = factory.open();
      commit(store, (batch) => {
        for (let i = 0; i < 2000; i++) batch.put(0, Uint8Array.of(i >> 8, i & 0xff), s('old'));
      });
      const seen: string[] = [];
      let i = 0;
      for (const entry of store.range(0)) {
        if (i++ === 10) {
          commit(store, (batch) => {
            for (let j = 0; j < 2000; j += 2) batch.delete(0, Uint8Array.of(j >> 8, j & 0xff));
            for (let j = 1; j < 2000; j += 2) batch.put(0, Uint8Array.of(j >> 8, j & 0xff), s('new'));
            batch.put(0, b(0xff, 0xff), s('new'));
          });
        }
        seen.push(new TextDecoder().decode(entry.value));
      }
      assert.equal(seen.length, 2000);
      assert.ok(seen.every((value) => value === 'old'));
      assert.equal([...store.range(0)].length, 1001);
      // A scan left early does not hold later commits back.
      for (const _ of store.range(0)) break;
      commit(store, (batch) => batch.put(0, b(0xff, 0xff), s('newer')));
      assert.deepEqual(store.get(0, b(0xff, 0xff)), s('newer'));
      await store.close();
    });

    it('takes the snapshot of a scan when its iteration starts', async () => {
      const store = factory.open();
      const scan = store.range(42);
      commit(store, (batch) => batch.put(42, s('a'), s('1')));
      assert.deepEqual(entries(scan), [[hex(s('a')), hex(s('1'))]]);
      await store.close();
    });

    it('rejects invalid reads the same way', async () => {
      const store = factory.open();
      assert.throws(() => store.get(0, new Uint8Array(MAX_KEY_LENGTH + 1)), KeyTooLongError);
      assert.throws(() => store.has(0, new Uint8Array(MAX_KEY_LENGTH + 1)), KeyTooLongError);
      assert.throws(() => store.range(0, { start: new Uint8Array(MAX_KEY_LENGTH + 1) }), KeyTooLongError);
      assert.throws(() => store.get(0, 'a' as unknown as Uint8Array), InvalidBytesError);
      assert.throws(() => store.range(256), InvalidColumnError);
      assert.throws(() => store.range(0, { limit: 1.5 }), RangeError);
      await store.close();
    });

    it('refuses use after close', async () => {
      const store = factory.open();
      commit(store, (batch) => batch.put(0, s('a'), s('1')));
      await store.close();
      await store.close();
      assert.throws(() => store.get(0, s('a')), StoreClosedError);
      assert.throws(() => store.has(0, s('a')), StoreClosedError);
      assert.throws(() => store.range(0), StoreClosedError);
      assert.throws(() => commit(store, (batch) => batch.put(0, s('a'), s('2'))), StoreClosedError);
    });
  });
}

describe('LMDB store on disk', () => {
  it('keeps its data across reopen', async () => {
    const dir = tempDir();
    const store = openLmdbStore(dir);
    commit(store, (batch) => {
      for (let i = 0; i < 500; i++) batch.put(7, Uint8Array.of(i >> 8, i & 0xff), Uint8Array.of(i & 0xff));
      batch.put(0, s('a'), s('kept'));
    });
    commit(store, (batch) => batch.delete(0, s('a')));
    commit(store, (batch) => batch.put(0, s('b'), s('kept')));
    await store.close();
    const reopened = openLmdbStore(dir);
    assert.equal([...reopened.range(7)].length, 500);
    assert.equal(reopened.get(0, s('a')), undefined);
    assert.deepEqual(reopened.get(0, s('b')), s('kept'));
    await reopened.close();
  });
});

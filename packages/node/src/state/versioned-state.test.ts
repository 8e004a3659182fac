import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type KeyValueStore, WriteBatch } from '../store/key-value-store.js';
import { openLmdbStore } from '../store/lmdb-store.js';
import { openMemoryStore } from '../store/memory-store.js';
import { seededRandom as random } from '../store/seeded-random.js';
import { KeyTooLongError } from '../store/store-errors.js';
import { VersionedState } from './versioned-state.js';
import {
  compareBytes,
  groupedLength,
  MAX_HEIGHT,
  MAX_STATE_KEY_LENGTH,
  readGrouped,
  readInvertedHeight,
  versionKey,
  writeGrouped,
  writeInvertedHeight,
} from './versioned-state-encoding.js';

const tempDirs: string[] = [];
after(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

const factories: { kind: string; open(): KeyValueStore }[] = [
  { kind: 'memory', open: () => openMemoryStore() },
  {
    kind: 'lmdb',
    open: () => {
      const dir = mkdtempSync(join(tmpdir(), 'shadebox-state-'));
      tempDirs.push(dir);
      return openLmdbStore(dir);
    },
  },
];

const COLUMN = 6;
const b = (...bytes: number[]) => Uint8Array.from(bytes);
const s = (text: string) => new TextEncoder().encode(text);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const text = (bytes: Uint8Array | undefined) =>
  bytes === undefined ? undefined : new TextDecoder().decode(bytes);

/** Writes `changes` at `height` and commits them. */
function write(
  store: KeyValueStore,
  state: VersionedState,
  height: number,
  changes: [Uint8Array, Uint8Array | null][],
) {
  const batch = new WriteBatch();
  state.write(batch, height, changes);
  store.commit(batch);
}

function scanned(iterable: Iterable<{ key: Uint8Array; value: Uint8Array }>): [string, string][] {
  return [...iterable].map(({ key, value }) => [hex(key), hex(value)]);
}

function countEntries(store: KeyValueStore): number {
  let n = 0;
  for (const _ of store.range(COLUMN)) n++;
  return n;
}

/** The reference implementation: every version of every key in a Map of arrays. */
class ModelState {
  readonly versions = new Map<
    string,
    { key: Uint8Array; history: { height: number; value: Uint8Array | null }[] }
  >();

  write(height: number, changes: [Uint8Array, Uint8Array | null][]) {
    for (const [key, value] of changes) {
      const id = hex(key);
      let entry = this.versions.get(id);
      if (!entry) {
        entry = { key, history: [] };
        this.versions.set(id, entry);
      }
      entry.history = entry.history.filter((version) => version.height !== height);
      entry.history.push({ height, value });
      entry.history.sort((x, y) => x.height - y.height);
    }
  }

  get(key: Uint8Array, height: number): Uint8Array | undefined {
    const history = this.versions.get(hex(key))?.history ?? [];
    let found: Uint8Array | null = null;
    for (const version of history) if (version.height <= height) found = version.value;
    return found ?? undefined;
  }

  scan(prefix: Uint8Array, height: number, options: { after?: Uint8Array; limit?: number } = {}) {
    const keys = [...this.versions.values()]
      .map((entry) => entry.key)
      .filter(
        (key) => key.length >= prefix.length && compareBytes(key.subarray(0, prefix.length), prefix) === 0,
      )
      .filter((key) => options.after === undefined || compareBytes(key, options.after) > 0)
      .sort(compareBytes);
    const out: [string, string][] = [];
    for (const key of keys) {
      if (out.length === (options.limit ?? Number.POSITIVE_INFINITY)) break;
      const value = this.get(key, height);
      if (value !== undefined) out.push([hex(key), hex(value)]);
    }
    return out;
  }

  /** Number of versions a correct prune at `keep` leaves. */
  keptAfterPrune(keep: number): number {
    let n = 0;
    for (const { history } of this.versions.values()) {
      n += history.filter((version) => version.height > keep).length;
      const answer = history.filter((version) => version.height <= keep).at(-1);
      if (answer && answer.value !== null) n++;
    }
    return n;
  }
}

describe('versioned state encoding', () => {
  it('is order-preserving and prefix-free', (t) => {
    t.diagnostic('seed 3 (fixed)');
    const next = random(3);
    const keys: Uint8Array[] = [
      b(),
      b(0),
      b(0, 0),
      b(0xff),
      b(0xff, 0xff),
      new Uint8Array(8),
      new Uint8Array(16),
    ];
    for (let i = 0; i < 400; i++) {
      keys.push(
        Uint8Array.from({ length: Math.floor(next() * 20) }, () =>
          next() < 0.4 ? (next() < 0.5 ? 0 : 0xff) : Math.floor(next() * 256),
        ),
      );
    }
    const grouped = (key: Uint8Array) => {
      const out = new Uint8Array(groupedLength(key.length));
      assert.equal(writeGrouped(key, out, 0), out.length);
      return out;
    };
    for (const x of keys) {
      const gx = grouped(x);
      assert.deepEqual(readGrouped(gx), x);
      for (const y of keys) {
        const gy = grouped(y);
        assert.equal(
          Math.sign(compareBytes(gx, gy)),
          Math.sign(compareBytes(x, y)),
          `${hex(x)} vs ${hex(y)}`,
        );
        if (compareBytes(x, y) !== 0) {
          const isPrefix = gx.length < gy.length && compareBytes(gx, gy.subarray(0, gx.length)) === 0;
          assert.equal(isPrefix, false, `${hex(x)} is encoded as a prefix of ${hex(y)}`);
        }
      }
    }
  });

  it('stores heights newest first and reads them back', () => {
    const heights = [0, 1, 255, 256, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 17, MAX_HEIGHT];
    for (const height of heights) {
      const out = new Uint8Array(8);
      writeInvertedHeight(height, out, 0);
      assert.equal(readInvertedHeight(out, 0), height);
    }
    for (let i = 1; i < heights.length; i++) {
      assert.ok(compareBytes(versionKey(s('k'), heights[i]), versionKey(s('k'), heights[i - 1])) < 0);
    }
  });
});

for (const factory of factories) {
  describe(`VersionedState (${factory.kind})`, () => {
    it('reads versions at several heights back at every height', async () => {
      const store = factory.open();
      const state = new VersionedState(store, COLUMN);
      write(store, state, 5, [[s('k'), s('v5')]]);
      write(store, state, 10, [[s('k'), s('v10')]]);
      write(store, state, 20, [
        [s('k'), s('v20')],
        [s('other'), s('o20')],
      ]);
      for (let h = 0; h <= 25; h++) {
        const expected = h < 5 ? undefined : h < 10 ? 'v5' : h < 20 ? 'v10' : 'v20';
        assert.equal(text(state.get(s('k'), h)), expected, `height ${h}`);
        assert.equal(text(state.get(s('other'), h)), h < 20 ? undefined : 'o20');
      }
      assert.equal(text(state.get(s('k'), MAX_HEIGHT)), 'v20');
      assert.equal(state.get(s('missing'), 100), undefined);
      assert.throws(() => state.get(s('k'), -1), RangeError);
      assert.throws(() => state.get(s('k'), 1.5), RangeError);
      await store.close();
    });

    it('handles deletions, re-creations and empty values', async () => {
      const store = factory.open();
      const state = new VersionedState(store, COLUMN);
      write(store, state, 1, [[s('k'), s('a')]]);
      write(store, state, 3, [[s('k'), null]]);
      write(store, state, 6, [[s('k'), s('b')]]);
      write(store, state, 8, [[s('k'), new Uint8Array(0)]]);
      write(store, state, 9, [[s('k'), null]]);
      const expected = [
        undefined,
        'a',
        'a',
        undefined,
        undefined,
        undefined,
        'b',
        'b',
        '',
        undefined,
        undefined,
      ];
      for (const [h, value] of expected.entries()) {
        assert.equal(text(state.get(s('k'), h)), value, `height ${h}`);
        assert.deepEqual(
          scanned(state.scan(new Uint8Array(0), h)),
          value === undefined ? [] : [[hex(s('k')), hex(s(value))]],
        );
      }
      const empty = state.get(s('k'), 8);
      assert.ok(empty instanceof Uint8Array && empty.length === 0, 'an empty value is not a deletion');
      // A deletion of a key that never existed is harmless.
      write(store, state, 10, [[s('ghost'), null]]);
      assert.equal(state.get(s('ghost'), 10), undefined);
      await store.close();
    });

    it('keeps the versions of keys that are prefixes of each other apart', async () => {
      const store = factory.open();
      const state = new VersionedState(store, COLUMN);
      const alice = s('alice');
      const aliceNear = s('alice.near');
      // A key whose tail is exactly the height suffix `alice` gets at height 2 under a naive
      // `key ‖ be64(MAX - height)` layout: there its versions would sort between those of `alice`.
      const naiveSuffix = new Uint8Array(8);
      writeInvertedHeight(2, naiveSuffix, 0);
      const tricky = new Uint8Array([...alice, ...naiveSuffix]);
      const naive = (key: Uint8Array, height: number) => {
        const suffix = new Uint8Array(8);
        writeInvertedHeight(height, suffix, 0);
        return new Uint8Array([...key, ...suffix]);
      };
      assert.ok(
        compareBytes(naive(alice, 3), naive(tricky, 2)) < 0 &&
          compareBytes(naive(tricky, 2), naive(alice, 1)) < 0,
        'the test data interleaves versions under the naive layout',
      );
      assert.ok(compareBytes(naive(alice, 1), naive(aliceNear, 2)) < 0);
      write(store, state, 1, [
        [alice, s('alice@1')],
        [aliceNear, s('near@1')],
      ]);
      write(store, state, 2, [
        [tricky, s('tricky@2')],
        [aliceNear, null],
      ]);
      write(store, state, 3, [[alice, s('alice@3')]]);
      write(store, state, 4, [[aliceNear, s('near@4')]]);
      write(store, state, 5, [
        [alice, null],
        [tricky, s('tricky@5')],
      ]);
      const table: [number, string | undefined, string | undefined, string | undefined][] = [
        // height, alice, alice.near, tricky
        [0, undefined, undefined, undefined],
        [1, 'alice@1', 'near@1', undefined],
        [2, 'alice@1', undefined, 'tricky@2'],
        [3, 'alice@3', undefined, 'tricky@2'],
        [4, 'alice@3', 'near@4', 'tricky@2'],
        [5, undefined, 'near@4', 'tricky@5'],
        [6, undefined, 'near@4', 'tricky@5'],
      ];
      for (const [h, a, n, t] of table) {
        assert.equal(text(state.get(alice, h)), a, `alice at ${h}`);
        assert.equal(text(state.get(aliceNear, h)), n, `alice.near at ${h}`);
        assert.equal(text(state.get(tricky, h)), t, `tricky at ${h}`);
        const expected = (
          [
            [alice, a],
            [tricky, t],
            [aliceNear, n],
          ] as const
        ).filter(([, value]) => value !== undefined);
        assert.deepEqual(
          scanned(state.scan(alice, h)),
          expected.map(([key, value]) => [hex(key), hex(s(value as string))]),
          `scan at ${h}`,
        );
      }
      assert.deepEqual(scanned(state.scan(s('alice.'), 4)), [[hex(aliceNear), hex(s('near@4'))]]);
      assert.deepEqual(scanned(state.scan(s('alicf'), 4)), []);
      await store.close();
    });

    it('handles keys containing 0x00 and 0xff bytes, across group boundaries', async () => {
      const store = factory.open();
      const state = new VersionedState(store, COLUMN);
      const keys = [
        b(),
        b(0),
        b(0, 0),
        b(0, 0xff),
        b(0xff),
        b(0xff, 0),
        b(0xff, 0xff),
        new Uint8Array(7),
        new Uint8Array(8),
        new Uint8Array(9),
        new Uint8Array(16),
        new Uint8Array(8).fill(0xff),
        new Uint8Array(9).fill(0xff),
        new Uint8Array(2048 + 64), // the longest NEAR contract-data key, all zero bytes
      ];
      write(
        store,
        state,
        1,
        keys.map((key, i) => [key, b(i)]),
      );
      write(store, state, 2, [
        [b(0), null],
        [new Uint8Array(8), b(99)],
      ]);
      for (const [i, key] of keys.entries()) {
        assert.deepEqual(state.get(key, 1), b(i));
      }
      assert.equal(state.get(b(0), 2), undefined);
      assert.deepEqual(state.get(new Uint8Array(8), 2), b(99));
      const sorted = [...keys].sort(compareBytes);
      assert.deepEqual(
        [...state.scan(b(), 1)].map((entry) => hex(entry.key)),
        sorted.map(hex),
      );
      const zeroPrefixed = sorted.filter((key) => key[0] === 0 && key.length >= 1);
      assert.deepEqual(
        [...state.scan(b(0), 1)].map((entry) => hex(entry.key)),
        zeroPrefixed.map(hex),
      );
      assert.deepEqual(
        [...state.scan(new Uint8Array(8), 1)].map((entry) => entry.key.length),
        [8, 9, 16, 2048 + 64],
      );
      assert.deepEqual(
        [...state.scan(b(0xff), 2)].map((entry) => hex(entry.key)),
        sorted.filter((key) => key[0] === 0xff).map(hex),
      );
      await store.close();
    });

    it('accepts state keys up to MAX_STATE_KEY_LENGTH bytes and answers longer ones without failing', async () => {
      const store = factory.open();
      const state = new VersionedState(store, COLUMN);
      const longest = new Uint8Array(MAX_STATE_KEY_LENGTH).fill(0);
      const below = new Uint8Array(MAX_STATE_KEY_LENGTH).fill(0);
      below[MAX_STATE_KEY_LENGTH - 1] = 0xff;
      write(store, state, 1, [
        [longest, s('longest')],
        [below, s('below')],
      ]);
      assert.equal(text(state.get(longest, 1)), 'longest');
      assert.throws(
        () => state.write(new WriteBatch(), 2, [[new Uint8Array(MAX_STATE_KEY_LENGTH + 1), s('x')]]),
        KeyTooLongError,
      );
      const tooLong = new Uint8Array(MAX_STATE_KEY_LENGTH + 10).fill(0);
      assert.equal(state.get(tooLong, 1), undefined);
      assert.deepEqual([...state.scan(tooLong, 1)], []);
      // Keys after a too-long `after` are those after its first MAX_STATE_KEY_LENGTH bytes.
      assert.deepEqual(
        [...state.scan(new Uint8Array(0), 1, { after: tooLong })].map((entry) => text(entry.value)),
        ['below'],
      );
      assert.deepEqual(
        [...state.scan(new Uint8Array(0), 1)].map((entry) => text(entry.value)),
        ['longest', 'below'],
      );
      await store.close();
    });

    it('scans with prefix, after and limit as of old heights', async () => {
      const store = factory.open();
      const state = new VersionedState(store, COLUMN);
      const key = (i: number) => s(`acc${String(i).padStart(3, '0')}`);
      for (let h = 1; h <= 30; h++) {
        // Height h creates key h, rewrites key h-1, deletes key h-2 (every third height) and touches others.
        const changes: [Uint8Array, Uint8Array | null][] = [[key(h), s(`${h}`)]];
        if (h > 1) changes.push([key(h - 1), s(`${h - 1}@${h}`)]);
        if (h > 2 && h % 3 === 0) changes.push([key(h - 2), null]);
        changes.push([s(`other${h}`), s('x')]);
        write(store, state, h, changes);
      }
      const model = (h: number) => {
        const out: string[] = [];
        for (let i = 1; i <= Math.min(h, 30); i++) {
          const deletedAt = (i + 2) % 3 === 0 ? i + 2 : undefined;
          if (deletedAt !== undefined && deletedAt <= h) continue;
          out.push(hex(key(i)));
        }
        return out;
      };
      for (const h of [0, 1, 2, 3, 10, 17, 29, 30, 100]) {
        assert.deepEqual(
          [...state.scan(s('acc'), h)].map((entry) => hex(entry.key)),
          model(h),
          `height ${h}`,
        );
        // Pages of 4 give the same keys.
        const paged: string[] = [];
        let afterKey: Uint8Array | undefined;
        for (;;) {
          const page = [...state.scan(s('acc'), h, { after: afterKey, limit: 4 })];
          paged.push(...page.map((entry) => hex(entry.key)));
          if (page.length < 4) break;
          afterKey = page[page.length - 1].key;
        }
        assert.deepEqual(paged, model(h), `paged at ${h}`);
      }
      assert.equal(text([...state.scan(key(10), 10)][0].value), '10');
      assert.equal(text([...state.scan(key(10), 11)][0].value), '10@11');
      assert.deepEqual([...state.scan(s('acc'), 30, { limit: 0 })], []);
      assert.throws(() => state.scan(s('acc'), 30, { limit: -1 }), RangeError);
      assert.throws(() => state.prune(new WriteBatch(), 30, { limit: 1.5 }), RangeError);
      assert.equal(state.prune(new WriteBatch(), 30, { limit: 0 }), 0);
      assert.deepEqual([...state.scan(s('acc'), 30, { after: s('acd') })], []);
      assert.equal([...state.scan(s('acc'), 30, { after: s('a') })].length, model(30).length);
      await store.close();
    });

    it('reads deep histories with one seek per key', async () => {
      const store = factory.open();
      const state = new VersionedState(store, COLUMN);
      const batch = new WriteBatch();
      for (let h = 1; h <= 3000; h++) {
        state.write(batch, h, [
          [s('hot'), s(String(h))],
          [s('hot2'), h % 100 === 0 ? null : s(String(h))],
        ]);
      }
      state.write(batch, 5, [[s('hot1'), s('cold')]]);
      store.commit(batch);
      for (const h of [1, 2, 99, 100, 101, 1500, 2999, 3000, 5000]) {
        const top = Math.min(h, 3000);
        assert.equal(text(state.get(s('hot'), h)), String(top));
        assert.equal(text(state.get(s('hot2'), h)), top % 100 === 0 ? undefined : String(top));
        const expected = [[hex(s('hot')), hex(s(String(top)))]];
        if (h >= 5) expected.push([hex(s('hot1')), hex(s('cold'))]);
        if (top % 100 !== 0) expected.push([hex(s('hot2')), hex(s(String(top)))]);
        assert.deepEqual(scanned(state.scan(s('hot'), h)), expected, `height ${h}`);
      }
      await store.close();
    });

    for (const seed of factory.kind === 'lmdb' ? [11, 21] : [12, 22, 32, 42]) {
      it(`matches a reference model, and prune keeps every answer from keepFromHeight on (seed ${seed})`, async () => {
        const store = factory.open();
        const state = new VersionedState(store, COLUMN);
        const model = new ModelState();
        const next = random(seed);
        const alphabet = [
          b(),
          b(0),
          b(0xff),
          s('a'),
          s('a.b'),
          s('ab'),
          b(0x61, 0),
          b(0x61, 0, 0xff),
          new Uint8Array(8),
        ];
        const keyPool: Uint8Array[] = [];
        for (const x of alphabet)
          for (const y of alphabet.slice(0, 5)) keyPool.push(new Uint8Array([...x, ...y]));
        const maxHeight = 60;
        for (let h = 1; h <= maxHeight; h += 1 + Math.floor(next() * 2)) {
          const changes: [Uint8Array, Uint8Array | null][] = [];
          const n = 1 + Math.floor(next() * 8);
          for (let i = 0; i < n; i++) {
            const key = keyPool[Math.floor(next() * keyPool.length)];
            const r = next();
            changes.push([key, r < 0.25 ? null : r < 0.3 ? new Uint8Array(0) : s(`${hex(key)}@${h}#${i}`)]);
          }
          write(store, state, h, changes);
          model.write(h, changes);
        }
        const prefixes = [
          b(),
          b(0),
          b(0xff),
          s('a'),
          s('a.'),
          b(0x61, 0),
          new Uint8Array(8),
          new Uint8Array(9),
          s('zz'),
        ];
        const check = (fromHeight: number) => {
          for (let h = fromHeight; h <= maxHeight + 2; h++) {
            for (const key of keyPool) {
              assert.deepEqual(state.get(key, h), model.get(key, h), `get ${hex(key)} at ${h}`);
            }
            for (const prefix of prefixes) {
              assert.deepEqual(
                scanned(state.scan(prefix, h)),
                model.scan(prefix, h),
                `scan ${hex(prefix)} at ${h}`,
              );
              const afterKey = keyPool[Math.floor(next() * keyPool.length)];
              const limit = Math.floor(next() * 5);
              assert.deepEqual(
                scanned(state.scan(prefix, h, { after: afterKey, limit })),
                model.scan(prefix, h, { after: afterKey, limit }),
                `scan ${hex(prefix)} at ${h} after ${hex(afterKey)} limit ${limit}`,
              );
            }
          }
        };
        check(0);
        const keep = 35;
        const before = countEntries(store);
        // Prune in small steps (limit) until nothing is left to prune.
        let pruned = 0;
        for (;;) {
          const batch = new WriteBatch();
          const n = state.prune(batch, keep, { limit: 7 });
          assert.ok(n <= 7);
          assert.equal(batch.size, n);
          store.commit(batch);
          pruned += n;
          if (n === 0) break;
          check(keep); // every intermediate state answers the same from `keep` on
        }
        assert.ok(pruned > 0, 'prune removed versions');
        assert.equal(countEntries(store), before - pruned);
        assert.equal(
          countEntries(store),
          model.keptAfterPrune(keep),
          'exactly the unneeded versions are gone',
        );
        check(keep);
        // Pruning again, or at an older height, finds nothing more.
        assert.equal(state.prune(new WriteBatch(), keep), 0);
        assert.equal(state.prune(new WriteBatch(), keep - 10), 0);
        // Everything at or below the newest height can go except the current values.
        const final = new WriteBatch();
        state.prune(final, maxHeight + 5);
        store.commit(final);
        assert.equal(countEntries(store), model.keptAfterPrune(maxHeight + 5));
        check(maxHeight);
        await store.close();
      });
    }

    for (const [seed, journalLimit] of factory.kind === 'lmdb'
      ? [[13, 65_536]]
      : [
          [14, 65_536],
          [24, 65_536],
          [34, 24],
        ]) {
      it(`a pruning pass over the keys written since the last one leaves what a whole scan does (seed ${seed}, journal ${journalLimit})`, async () => {
        const store = factory.open();
        const state = new VersionedState(store, COLUMN, { pruningJournalLimit: journalLimit });
        const model = new ModelState();
        const next = random(seed);
        const keyPool = Array.from({ length: 24 }, (_, i) => s(`k${i % 7}${'x'.repeat(i)}`));
        const writeRandom = (h: number) => {
          const changes: [Uint8Array, Uint8Array | null][] = [];
          const n = 1 + Math.floor(next() * 6);
          for (let i = 0; i < n; i++) {
            const key = keyPool[Math.floor(next() * keyPool.length)];
            changes.push([key, next() < 0.2 ? null : s(`${h}#${i}`)]);
          }
          write(store, state, h, changes);
          model.write(h, changes);
        };
        // Heights written before tracking starts are unknown to the journal: passes scan until past them.
        for (let h = 1; h <= 30; h++) writeRandom(h);
        state.trackWritesForPruning(30);
        let passes = 0;
        for (let h = 31; h <= 240; h++) {
          writeRandom(h);
          if (h % 9 !== 0) continue;
          const keep = h - 12 - Math.floor(next() * 10);
          for (;;) {
            const batch = new WriteBatch();
            const n = state.prune(batch, keep, { limit: 5 });
            store.commit(batch);
            if (n < 5) break;
          }
          passes++;
          assert.equal(countEntries(store), model.keptAfterPrune(keep), `entries after the pass at ${keep}`);
          for (const key of keyPool) {
            for (const at of [keep, keep + 3, h]) {
              assert.deepEqual(state.get(key, at), model.get(key, at), `get ${hex(key)} at ${at}`);
            }
          }
        }
        assert.ok(passes > 20);
        await store.close();
      });
    }
  });
}

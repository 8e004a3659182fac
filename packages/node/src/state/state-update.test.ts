import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WriteBatch } from '../store/key-value-store.js';
import { openMemoryStore } from '../store/memory-store.js';
import { StateUpdate } from './state-update.js';
import { VersionedState } from './versioned-state.js';

const k = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : undefined);

function stateWith(entries: Record<string, string>) {
  const store = openMemoryStore();
  const state = new VersionedState(store, 1);
  const batch = new WriteBatch();
  state.write(
    batch,
    5,
    Object.entries(entries).map(([key, v]) => [k(key), k(v)]),
  );
  store.commit(batch);
  return state;
}

describe('StateUpdate', () => {
  it('reads through pending, block and committed layers', () => {
    const u = new StateUpdate(stateWith({ a: '1', b: '2' }), 5);
    u.set(k('a'), k('10'));
    assert.equal(text(u.get(k('a'))), '10');
    u.commit({ type: 'initial_state' });
    u.remove(k('b'));
    assert.equal(u.get(k('b')), undefined);
    assert.equal(text(u.get(k('a'))), '10');
  });

  it('rollback drops only the pending writes', () => {
    const u = new StateUpdate(stateWith({ a: '1' }), 5);
    u.set(k('a'), k('2'));
    u.commit({ type: 'transaction_processing', tx_hash: 'h' });
    u.set(k('a'), k('3'));
    u.set(k('c'), k('4'));
    u.rollback();
    assert.equal(text(u.get(k('a'))), '2');
    assert.equal(u.get(k('c')), undefined);
    assert.deepEqual(
      u.changes.map((c) => [text(c.key), text(c.value ?? undefined), c.cause.type]),
      [['a', '2', 'transaction_processing']],
    );
  });

  it('scans a prefix with every layer applied, in key order', () => {
    const u = new StateUpdate(stateWith({ 'p/1': 'a', 'p/2': 'b', 'q/1': 'c' }), 5);
    u.remove(k('p/1'));
    u.commit({ type: 'initial_state' });
    u.set(k('p/0'), k('z'));
    assert.deepEqual(
      u.scan(k('p/')).map((e) => [text(e.key), text(e.value)]),
      [
        ['p/0', 'z'],
        ['p/2', 'b'],
      ],
    );
  });

  it('finish returns the net writes and refuses uncommitted ones', () => {
    const u = new StateUpdate(undefined, -1);
    u.set(k('x'), k('1'));
    assert.throws(() => u.finish(), /uncommitted/);
    u.commit({ type: 'initial_state' });
    u.set(k('x'), k('2'));
    u.commit({ type: 'initial_state' });
    assert.deepEqual(
      u.finish().map(([key, v]) => [text(key), text(v ?? undefined)]),
      [['x', '2']],
    );
  });
});

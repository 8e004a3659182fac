/**
 * EnforceStorageProofLimitForAllActions (protocol 87, nearcore 2.14): the per-receipt storage-proof limit is
 * checked after every action, not only inside function calls, on a record that holds every read of the runtime
 * (chunk-read-recorder.ts). nearcore's own case (runtime/runtime/src/tests/apply.rs
 * `test_add_keys_after_large_read_exceed_receipt_storage_proof_limit`): a call reads four values that fill the
 * receipt's allowance but for 1,000 bytes, then `AddKey` actions on an account with 16 keys each look the new
 * key up and record the access-key nodes no earlier lookup walked. At 86 only the call is bounded and the
 * receipt succeeds; at 87 it fails on an `AddKey` with `ReceiptStorageProofSizeExceeded`, and no key is added.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fullAccessKey, KEY_TYPE_ED25519, type PublicKey, sha256 } from '@shadebox/primitives';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { accessKeyKey, contractCodeKey, contractDataKey } from '../state/state-keys.js';
import { StateUpdate } from '../state/state-update.js';
import { getAccessKey, getAccount, setAccessKey, setAccount } from '../state/typed-state.js';
import type { VersionedState } from '../state/versioned-state.js';
import { Trie } from '../trie/trie.js';
import { TrieAccountingCache } from '../trie/trie-accounting.js';
import { TrieRecorder } from '../trie/trie-recorder.js';
import { EMPTY_ROOT, MemoryTrieStorage } from '../trie/trie-storage.js';
import { applyTrieChanges } from '../trie/trie-update.js';
import { wat } from '../vm/prepare/test-helpers.js';
import { applyActionReceipt } from './apply-action-receipt.js';
import { recordingReads } from './chunk-read-recorder.js';
import { runtimeParamsFrom } from './runtime-params.js';
import {
  actionReceipt,
  NEAR,
  RuntimeHarness,
  testBlock,
  testPublicKey,
} from './test-support/apply-receipt-harness.js';

const ALICE = 'alice.near';
const NUM_VALUES = 4;
const RESERVED_UNDER_LIMIT = 1_000;
const NUM_EXISTING_KEYS = 16;
const NUM_ADDED_KEYS = 6;

// `read(n)`: storage_read of the one-byte keys 0..n-1 (the argument is that byte count).
const READER = wat(`(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "storage_read" (func $storage_read (param i64 i64 i64) (result i64)))
  (memory 1)
  (func (export "read") (local $i i32) (local $n i32)
    (call $input (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 16))
    (local.set $n (i32.load8_u (i32.const 16)))
    (block $done (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (i32.store8 (i32.const 0) (local.get $i))
      (drop (call $storage_read (i64.const 1) (i64.const 0) (i64.const 1)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next)))))`);

const key = (seed: string): PublicKey => ({ keyType: KEY_TYPE_ED25519, data: sha256(Buffer.from(seed)) });
const LIMIT = Number(loadRuntimeConfig(87).wasm.limits.perReceiptStorageProofSizeLimit);
const VALUE_SIZE = Math.floor((LIMIT - RESERVED_UNDER_LIMIT) / NUM_VALUES);

/** alice's state as a trie and the flat state it was built from: 16 more keys, the reader and its values. */
function preState() {
  const h = new RuntimeHarness();
  h.addAccount(ALICE, 1_000_000n * NEAR);
  for (let i = 0; i < NUM_EXISTING_KEYS; i++)
    setAccessKey(h.state, ALICE, key(`existing${i}`), fullAccessKey());
  h.state.set(contractCodeKey(ALICE), READER);
  setAccount(h.state, ALICE, { ...getAccount(h.state, ALICE)!, codeHash: sha256(READER) });
  for (let i = 0; i < NUM_VALUES; i++)
    h.state.set(contractDataKey(ALICE, Uint8Array.of(i)), new Uint8Array(VALUE_SIZE).fill(i + 1));
  h.state.commit({ type: 'initial_state' });
  const writes = h.state.finish();
  const storage = new MemoryTrieStorage();
  const changes = applyTrieChanges(
    storage,
    EMPTY_ROOT,
    writes.map(([k, value]) => ({ key: k, value })),
  );
  storage.apply(changes);
  const flat = new Map(writes.map(([k, v]) => [Buffer.from(k).toString('hex'), v ?? undefined]));
  return { storage, root: changes.newRoot, flat };
}

const PRE = preState();
const READ = {
  type: 'FunctionCall' as const,
  methodName: 'read',
  args: Uint8Array.of(NUM_VALUES),
  gas: 100n * 10n ** 12n,
  deposit: 0n,
};
const ADDED = Array.from({ length: NUM_ADDED_KEYS }, (_, i) => key(`added${i}`));
const ADD_KEYS = ADDED.map((publicKey) => ({
  type: 'AddKey' as const,
  publicKey,
  accessKey: fullAccessKey(),
}));

/** Applies one receipt of alice's to the pre-state at `version`, on a fresh chunk trie with a recorder. */
function apply(version: number, actions: Parameters<typeof actionReceipt>[0]['actions']) {
  const params = runtimeParamsFrom(loadRuntimeConfig(version));
  const recorder = new TrieRecorder();
  const trie = new Trie(PRE.storage, PRE.root, { accounting: new TrieAccountingCache(), recorder });
  const base = { get: (k: Uint8Array) => PRE.flat.get(Buffer.from(k).toString('hex')) } as VersionedState;
  const state = new StateUpdate(base, 0);
  const receipt = actionReceipt({ receiverId: ALICE, signerPublicKey: testPublicKey(), actions });
  const exec = recordingReads(state, trie, () =>
    applyActionReceipt(params, testBlock({ trie }), state, receipt),
  );
  return { exec, recorder, state };
}

describe('EnforceStorageProofLimitForAllActions: the runtime reads of every action count (87)', () => {
  it('the read alone fills the allowance and still fits, at 86 and 87', () => {
    for (const version of [86, 87]) {
      const { exec, recorder } = apply(version, [READ]);
      assert.equal(exec.failure, undefined, `protocol ${version}`);
      // The four values and the nodes on their paths are recorded, within the limit.
      assert.ok(recorder.upperBound > NUM_VALUES * VALUE_SIZE);
      assert.ok(recorder.upperBound <= LIMIT);
    }
  });

  it('86: the AddKeys after the read record past the limit unchecked', () => {
    const { exec, recorder, state } = apply(86, [READ, ...ADD_KEYS]);
    assert.equal(exec.failure, undefined);
    for (const publicKey of ADDED) assert.ok(getAccessKey(state, ALICE, publicKey));
    // The nodes the AddKeys looked up took the chunk's record past the limit: the read alone stays under it.
    const { recorder: readOnly } = apply(86, [READ]);
    assert.ok(readOnly.upperBound <= LIMIT);
    assert.ok(recorder.upperBound > LIMIT);
  });

  it('87: the receipt fails on an AddKey with ReceiptStorageProofSizeExceeded and adds no key', () => {
    const { exec, state } = apply(87, [READ, ...ADD_KEYS]);
    assert.ok(exec.failure);
    const json = exec.failure.toJSON().ActionError as { index: number | null; kind: unknown };
    assert.deepEqual(json.kind, { ReceiptStorageProofSizeExceeded: { limit: LIMIT } });
    assert.ok(json.index !== null && json.index > 0, 'fails on an AddKey, not on the read');
    for (const publicKey of ADDED) assert.equal(getAccessKey(state, ALICE, publicKey), undefined);
    assert.equal(state.get(accessKeyKey(ALICE, ADDED[0])), undefined);
  });
});

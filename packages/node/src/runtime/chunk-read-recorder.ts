/**
 * The runtime's own reads in the chunk's storage proof (nearcore's state witness). nearcore's runtime reads its
 * state through `TrieUpdate` with `AccessOptions::DEFAULT` (core/store/src/utils: accounts, access keys and
 * gas-key nonces, received data, postponed receipts and their ids and counts, promise-yield receipts, statuses,
 * indices and timeouts, global contracts), and a key the chunk's overlay does not hold is looked up in the trie:
 * with a recorder attached, every node on the path is recorded (flat storage and memtries walk it for the
 * recorder alone), then the value when it is dereferenced; `contains_key` records the path only, an iteration
 * (deleting an account) the nodes its iterator retrieves. So the record grows with what any action reads, and
 * protocol 87's limit for all actions can fire after a transfer or an `AddKey`.
 *
 * Recording touches neither the accounting cache nor gas (those reads use no access tracker). nearcore leaves
 * contract code out of the witness: an account's own code is read by its hash from the contract storage, not
 * through the trie, so reads of column 1 record nothing here (a call reads it only when its compiled module is
 * not cached, which must not change the record); a global contract's code is recorded by its path only (the
 * lookup of its value reference). Each key is walked once per chunk (a second read would record nothing new);
 * the nodes come decoded from the chunk trie's storage, which keeps them across chunks (trie/node-cache.ts).
 */
import { latin1String } from '@shadebox/primitives';
import { GLOBAL_CONTRACT_CODE_COLUMN } from '../state/global-contract-state.js';
import { StateColumn } from '../state/state-keys.js';
import type { StateReadObserver } from '../state/state-update.js';
import { trieKeyOf } from '../state/trie-keys.js';
import type { RawTrieNode } from '../trie/raw-node.js';
import type { Trie } from '../trie/trie.js';
import { iteratePrefix } from '../trie/trie-iterator.js';
import { lookupValueRefBy, type TrieVisitor } from '../trie/trie-lookup.js';
import type { TrieRecorder } from '../trie/trie-recorder.js';
import { retrieveNode } from '../trie/trie-storage.js';

const PATH_ONLY = 0;
const WITH_VALUE = 1;

export class ChunkReadRecorder implements StateReadObserver {
  /** Keys walked in this chunk: whether their value was recorded too. */
  readonly #walked = new Map<string, number>();
  readonly #visit: TrieVisitor;
  readonly #retrieve: (hash: Uint8Array) => RawTrieNode;

  constructor(
    private readonly trie: Trie,
    private readonly recorder: TrieRecorder,
  ) {
    this.#visit = (hash, bytes) => recorder.record(hash, bytes);
    this.#retrieve = (hash) => {
      const { bytes, node } = retrieveNode(trie.storage, hash);
      recorder.record(hash, bytes);
      return node;
    };
  }

  read(key: Uint8Array, value: Uint8Array | undefined): void {
    const column = key[0];
    if (column === StateColumn.ContractCode) return;
    this.#walk(key, column === GLOBAL_CONTRACT_CODE_COLUMN ? undefined : value);
  }

  has(key: Uint8Array): void {
    if (key[0] !== StateColumn.ContractCode) this.#walk(key, undefined);
  }

  scan(prefix: Uint8Array): void {
    iteratePrefix(this.trie.storage, this.trie.root, trieKeyOf(prefix), this.#visit);
  }

  #walk(key: Uint8Array, value: Uint8Array | undefined): void {
    const k = latin1String(key);
    const walked = this.#walked.get(k);
    if (walked === WITH_VALUE || (walked === PATH_ONLY && value === undefined)) return;
    this.#walked.set(k, value === undefined ? PATH_ONLY : WITH_VALUE);
    const ref = lookupValueRefBy(this.#retrieve, this.trie.root, trieKeyOf(key));
    // The value as the trie holds it (the flat state's copy of the same bytes), recorded under its hash.
    if (value !== undefined && ref !== null) this.recorder.record(ref.hash, value);
  }
}

/** Records `state`'s reads in the chunk trie's recorder while `run` applies the chunk. */
export function recordingReads<T>(
  state: { readObserver: StateReadObserver | undefined },
  trie: Trie | undefined,
  run: () => T,
): T {
  const recorder = trie?.recorder;
  if (trie === undefined || recorder === undefined) return run();
  state.readObserver = new ChunkReadRecorder(trie, recorder);
  try {
    return run();
  } finally {
    state.readObserver = undefined;
  }
}

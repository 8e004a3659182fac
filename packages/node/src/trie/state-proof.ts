/**
 * Verifying a state proof (what a light client or bridge does with `view_state`'s `proof`): decode the nodes,
 * index them by sha256, walk from a trusted state root. Anything the walk needs that the proof lacks, or a
 * node that does not decode, makes the proof invalid.
 */
import { base58Encode, sha256 } from '@shadebox/primitives';
import { decodeRawNode, type ValueRef } from './raw-node.js';
import { InvalidStateProofError, MissingTrieNodeError, TrieNodeDecodeError } from './trie-errors.js';
import { iteratePrefix, type TrieItem } from './trie-iterator.js';
import { lookupValueRef } from './trie-lookup.js';
import { MemoryTrieStorage } from './trie-storage.js';

/** The proof's nodes by hash; throws `InvalidStateProofError` for bytes that are not a node. */
export function proofStorage(proof: Uint8Array[]): MemoryTrieStorage {
  const storage = new MemoryTrieStorage();
  proof.forEach((bytes, i) => {
    try {
      decodeRawNode(bytes);
    } catch (error) {
      if (error instanceof TrieNodeDecodeError)
        throw new InvalidStateProofError(`node ${i}: ${error.shortMessage}`);
      throw error;
    }
    storage.putRaw(sha256(bytes), bytes);
  });
  return storage;
}

function walking<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof MissingTrieNodeError) {
      throw new InvalidStateProofError(`the proof lacks node ${error.hash} on the walk`);
    }
    throw error;
  }
}

/**
 * What the proof says is stored under `key` at `root`: its value reference, or null when the proof shows
 * there is none. Throws `InvalidStateProofError` when the proof does not cover the key's path.
 */
export function proveKey(root: Uint8Array, proof: Uint8Array[], key: Uint8Array): ValueRef | null {
  const storage = proofStorage(proof);
  return walking(() => lookupValueRef(storage, root, key));
}

/** Whether `value` is the value `ref` references. */
export function valueMatches(ref: ValueRef, value: Uint8Array): boolean {
  return ref.length === value.length && Buffer.compare(sha256(value), ref.hash) === 0;
}

export interface VerifyPrefixProofOptions {
  /** Also require the proof to be exactly the nodes the iteration retrieves, in nearcore's order. */
  exactNodes?: boolean;
}

/**
 * Checks a `view_state` answer: the proof, walked from `root` under `prefix`, holds exactly `values` (whole
 * trie keys, in key order) and nothing else. Throws `InvalidStateProofError` otherwise; returns the items.
 */
export function verifyPrefixProof(
  root: Uint8Array,
  proof: Uint8Array[],
  prefix: Uint8Array,
  values: { key: Uint8Array; value: Uint8Array }[],
  options: VerifyPrefixProofOptions = {},
): TrieItem[] {
  const storage = proofStorage(proof);
  const visited: Uint8Array[] = [];
  const items = walking(() => iteratePrefix(storage, root, prefix, (_hash, bytes) => visited.push(bytes)));
  if (items.length !== values.length) {
    throw new InvalidStateProofError(
      `the proof holds ${items.length} keys under the prefix, the answer ${values.length}`,
    );
  }
  items.forEach((item, i) => {
    const { key, value } = values[i];
    if (Buffer.compare(item.key, key) !== 0) {
      throw new InvalidStateProofError(
        `key ${i} is ${Buffer.from(key).toString('hex')} in the answer, ${Buffer.from(item.key).toString('hex')} in the proof`,
      );
    }
    if (!valueMatches(item.value, value)) {
      throw new InvalidStateProofError(
        `the value of key ${Buffer.from(key).toString('hex')} does not match the proof (${base58Encode(item.value.hash)})`,
      );
    }
  });
  if (options.exactNodes) {
    const same =
      visited.length === proof.length && visited.every((bytes, i) => Buffer.compare(bytes, proof[i]) === 0);
    if (!same)
      throw new InvalidStateProofError(
        `the proof's ${proof.length} nodes are not the ${visited.length} the iteration retrieves, in order`,
      );
  }
  return items;
}

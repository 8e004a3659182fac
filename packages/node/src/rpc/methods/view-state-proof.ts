/**
 * `view_state` with `include_proof: true` (query and EXPERIMENTAL_view_state): the contract data under a prefix
 * read from the shard's trie at the block's post-state root, with the nodes nearcore's `TrieViewer::view_state`
 * returns as the proof: every node its trie iterator retrieved (`remember_visited_nodes`, then
 * `seek_prefix(09 ‖ account ‖ 2c ‖ prefix)`), in retrieval order: the seek path from the root, then the subtree
 * under the prefix depth first, each node once, values never. A prefix nothing is stored under still gets the
 * seek path: the proof that nothing is. The root the proof hashes to is the one the next block's new chunk
 * carries as `prev_state_root`.
 *
 * The keys come from the same iteration and each value is checked against the hash its leaf holds (the bytes
 * are the flat state's at the block), so the answer and its proof cannot disagree.
 */
import { base58Encode, base64Encode, bytesEqual, sha256 } from '@shadebox/primitives';
import { contractDataPrefix, keySuffix } from '../../state/state-keys.js';
import { MissingTrieNodeError, type Trie } from '../../trie/index.js';

export interface ProvenContractState {
  /** Keys without `09 ‖ account ‖ 2c`, in key order, with their values. */
  values: { key: Uint8Array; value: Uint8Array }[];
  /** The encoded nodes (`RawTrieNodeWithSize`), in the iterator's order. */
  proof: Uint8Array[];
}

/**
 * The account's contract data under `prefix` and its proof, from `trie` (the shard's trie at the block); the
 * values from `flatValue` (the flat state at the same block, which holds the trie's values), each checked
 * against the hash its leaf references.
 */
export function provenContractState(
  trie: Trie,
  accountId: string,
  prefix: Uint8Array,
  flatValue: (key: Uint8Array) => Uint8Array | undefined,
): ProvenContractState {
  const base = contractDataPrefix(accountId);
  const full = new Uint8Array(base.length + prefix.length);
  full.set(base);
  full.set(prefix, base.length);
  const { items, proof } = trie.prefixProof(full);
  const values = items.map(({ key, value }) => {
    const bytes = flatValue(key);
    if (bytes === undefined || !bytesEqual(sha256(bytes), value.hash)) {
      throw new MissingTrieNodeError(base58Encode(value.hash));
    }
    return { key: keySuffix(key, base), value: bytes };
  });
  return { values, proof };
}

/** The JSON of `ViewStateResult` with a proof: base64 as nearcore's `StoreKey`, `StoreValue` and `Vec<Base64>`;
 * `proof` is left out when empty (`skip_serializing_if = "Vec::is_empty"`: only an empty trie has no node). */
export function provenStateView({ values, proof }: ProvenContractState) {
  return {
    values: values.map(({ key, value }) => ({ key: base64Encode(key), value: base64Encode(value) })),
    ...(proof.length > 0 ? { proof: proof.map(base64Encode) } : {}),
  };
}

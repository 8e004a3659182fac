import { ShadeboxError } from '@shadebox/errors';

/** Base class of the errors of the state trie. */
export class TrieError extends ShadeboxError {
  override name = 'TrieError';
}

/** Bytes that are not a borsh `RawTrieNodeWithSize` (or an HP path that is not one). */
export class TrieNodeDecodeError extends TrieError {
  override name = 'TrieNodeDecodeError';
  constructor(reason: string) {
    super(`invalid trie node: ${reason}`, { details: { reason } });
  }
}

/**
 * A node or value the walk needs is not in the storage (nearcore's `StorageError::MissingTrieValue`): the
 * storage lost it, or a proof does not contain it.
 */
export class MissingTrieNodeError extends TrieError {
  override name = 'MissingTrieNodeError';
  constructor(readonly hash: string) {
    super(`trie node or value ${hash} is missing`, { details: { hash } });
  }
}

/** A state proof that does not prove what it is said to prove. */
export class InvalidStateProofError extends TrieError {
  override name = 'InvalidStateProofError';
  constructor(reason: string) {
    super(`invalid state proof: ${reason}`, { details: { reason } });
  }
}

/**
 * Borsh of transactions (core/primitives/src/transaction.rs).
 *
 * TransactionV0 = signer_id, public_key, nonce u64, receiver_id, block_hash [32], actions Vec<Action>.
 * TransactionV1 = the byte 0x01, then signer_id, public_key, nonce TransactionNonce (transaction-nonce.ts),
 * receiver_id, block_hash, actions, nonce_mode NonceMode (gas keys and strict nonces, protocol 85; the
 * earlier V1 with a priority_fee is gone from nearcore). A decoder tells them apart by the
 * second byte: for V0 it is the high byte of the signer id's u32 length, which is 0 because account ids are
 * at most 64 bytes; for V1 it is the low byte of that length, which is not 0. After a non-zero second byte
 * the first must be 1 (nearcore's current deserializer; older ones ignored it).
 *
 * SignedTransaction = borsh(Transaction) ‖ borsh(Signature). The transaction hash is sha256 of
 * borsh(Transaction), 0x01 included for V1, and its `size` is that byte length (`get_hash_and_size`).
 */

import { readAccountId, writeAccountId } from './account-id-borsh.js';
import { readAction, writeAction } from './action.js';
import { BorshReader, type BorshWriter, decodeBorsh, encodeBorsh } from './borsh.js';
import { BorshError } from './errors.js';
import { sha256 } from './hash.js';
import { readPublicKey, readSignature, writePublicKey, writeSignature } from './key-borsh.js';
import type { KeyPair } from './key-pair.js';
import {
  readNonceMode,
  readTransactionNonce,
  transactionNonce,
  writeNonceMode,
  writeTransactionNonce,
} from './transaction-nonce.js';
import type { SignedTransaction, Transaction } from './types.js';
import { verifySignature } from './verify-signature.js';

export function writeTransaction(w: BorshWriter, tx: Transaction): void {
  if (tx.version === 1) w.u8(1);
  else if (tx.version !== 0) throw new BorshError(`unknown transaction version ${String(tx.version)}`);
  else if (tx.nonceIndex !== undefined || (tx.nonceMode !== undefined && tx.nonceMode !== 'Monotonic')) {
    throw new BorshError('a gas-key nonce or a strict nonce mode needs a TransactionV1');
  }
  writeAccountId(w, tx.signerId);
  writePublicKey(w, tx.publicKey);
  if (tx.version === 1) writeTransactionNonce(w, transactionNonce(tx.nonce, tx.nonceIndex));
  else w.u64(tx.nonce);
  writeAccountId(w, tx.receiverId);
  w.fixedBytes(tx.blockHash, 32);
  w.vec(tx.actions, writeAction);
  if (tx.version === 1) writeNonceMode(w, tx.nonceMode ?? 'Monotonic');
}

export interface ReadTransactionOptions {
  /** Read `signer_id` and `receiver_id` as plain strings instead of refusing invalid ids, so a node can
   * answer them with `InvalidSignerId` / `InvalidReceiverId` rather than a decoding error. */
  lenientAccountIds?: boolean;
}

export function readTransaction(r: BorshReader, options: ReadTransactionOptions = {}): Transaction {
  const at = r.offset;
  if (r.peekByte(1) === 0) return readTransactionBody(r, 0, options);
  const tag = r.u8();
  if (tag !== 1) throw new BorshError(`invalid transaction version tag ${tag}`, at);
  return readTransactionBody(r, 1, options);
}

function readTransactionBody(r: BorshReader, version: 0 | 1, options: ReadTransactionOptions): Transaction {
  const readId = options.lenientAccountIds ? (reader: BorshReader) => reader.string() : readAccountId;
  const signerId = readId(r);
  const publicKey = readPublicKey(r);
  if (version === 0) {
    const nonce = r.u64();
    const receiverId = readId(r);
    const blockHash = r.fixedBytes(32);
    const actions = r.vec(readAction);
    return { version, signerId, publicKey, nonce, receiverId, blockHash, actions };
  }
  const txNonce = readTransactionNonce(r);
  const receiverId = readId(r);
  const blockHash = r.fixedBytes(32);
  const actions = r.vec(readAction);
  const nonceMode = readNonceMode(r);
  const tx: Transaction = {
    version,
    signerId,
    publicKey,
    nonce: txNonce.nonce,
    receiverId,
    blockHash,
    actions,
  };
  if (txNonce.kind === 'GasKeyNonce') tx.nonceIndex = txNonce.nonceIndex;
  tx.nonceMode = nonceMode;
  return tx;
}

export function encodeTransaction(tx: Transaction): Uint8Array {
  return encodeBorsh((w) => writeTransaction(w, tx));
}

export function decodeTransaction(bytes: Uint8Array): Transaction {
  return decodeBorsh(bytes, readTransaction);
}

/** sha256 of borsh(Transaction): the transaction hash, and the message its signature signs. */
export function transactionHash(tx: Transaction): Uint8Array {
  return sha256(encodeTransaction(tx));
}

export function writeSignedTransaction(w: BorshWriter, stx: SignedTransaction): void {
  writeTransaction(w, stx.transaction);
  writeSignature(w, stx.signature);
}

export function readSignedTransaction(r: BorshReader): SignedTransaction {
  return { transaction: readTransaction(r), signature: readSignature(r) };
}

export function encodeSignedTransaction(stx: SignedTransaction): Uint8Array {
  return encodeBorsh((w) => writeSignedTransaction(w, stx));
}

export interface DecodedSignedTransaction {
  signedTransaction: SignedTransaction;
  /** sha256 of the transaction bytes. */
  hash: Uint8Array;
  /** Byte length of borsh(Transaction), without the signature (nearcore's `SignedTransaction::get_size`). */
  size: number;
}

/**
 * Decodes a signed transaction, rejecting trailing bytes. The hash is taken over the transaction's own input
 * bytes, which are canonical (every field has exactly one encoding), so it equals nearcore's hash of the
 * re-serialized transaction.
 */
export function decodeSignedTransaction(
  bytes: Uint8Array,
  options: ReadTransactionOptions = {},
): DecodedSignedTransaction {
  const r = new BorshReader(bytes);
  let transaction: Transaction;
  let size: number;
  let signedTransaction: SignedTransaction;
  try {
    transaction = readTransaction(r, options);
    size = r.offset;
    signedTransaction = { transaction, signature: readSignature(r) };
  } catch (err) {
    if (err instanceof BorshError) throw err;
    throw new BorshError(err instanceof Error ? err.message : String(err), r.offset);
  }
  r.finish();
  return { signedTransaction, hash: sha256(bytes.subarray(0, size)), size };
}

export function signTransaction(tx: Transaction, keyPair: KeyPair): SignedTransaction {
  return { transaction: tx, signature: keyPair.sign(transactionHash(tx)) };
}

/** The signature is by the transaction's public key over its hash. */
export function verifyTransactionSignature(stx: SignedTransaction, hash?: Uint8Array): boolean {
  return verifySignature(hash ?? transactionHash(stx.transaction), stx.signature, stx.transaction.publicKey);
}

/** A convenience builder; `version` defaults to 0, or 1 when a gas-key nonce index or a nonce mode is given. */
export function createTransaction(fields: Omit<Transaction, 'version'> & Partial<Transaction>): Transaction {
  const v1 = fields.nonceIndex !== undefined || fields.nonceMode !== undefined;
  return { version: v1 ? 1 : 0, ...fields };
}

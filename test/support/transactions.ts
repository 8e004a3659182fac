/**
 * Transactions in the end-to-end tests: built and signed by hand with @shadebox/primitives (any nonce, block
 * hash, key or version, to test what the node refuses), sent with `send_tx`, and looked up again.
 */
import { createHash } from 'node:crypto';
import {
  type Action,
  base58Decode,
  base64Encode,
  createTransaction,
  encodeSignedTransaction,
  KeyPair,
  parsePublicKey,
  type SignedTransaction,
  signTransaction,
  type Transaction,
} from '@shadebox/primitives';
import type { Json } from './raw-rpc.js';
import { headHash, keyNonce, rpc } from './rpc-calls.js';

/** An account and one of its full-access keys. */
export interface Signer {
  accountId: string;
  key: KeyPair;
}

export interface TxFields {
  signerId: string;
  key: KeyPair;
  receiverId: string;
  actions: Action[];
  /** Default: the access key's nonce + 1. */
  nonce?: bigint;
  /** Default: the head block. */
  blockHash?: Uint8Array;
  /** Sign with this key instead of `key` (the transaction still names `key`'s public key). */
  signWith?: KeyPair;
  /** Put this public key in the transaction instead of `key`'s. */
  publicKey?: string;
  version?: 0 | 1;
  /** TransactionV1 only: a gas-key nonce for this nonce index. */
  nonceIndex?: number;
  /** TransactionV1 only. */
  nonceMode?: 'Monotonic' | 'Strict';
}

export interface BuiltTx {
  transaction: Transaction;
  signed: SignedTransaction;
  base64: string;
  bytes: Uint8Array;
}

export async function buildTx(url: string, f: TxFields): Promise<BuiltTx> {
  const publicKey = f.publicKey ? parsePublicKey(f.publicKey) : f.key.publicKey;
  const nonce = f.nonce ?? (await keyNonce(url, f.signerId, f.key.publicKeyString)) + 1n;
  const blockHash = f.blockHash ?? base58Decode(await headHash(url));
  const transaction = createTransaction({
    signerId: f.signerId,
    publicKey,
    nonce,
    receiverId: f.receiverId,
    blockHash,
    actions: f.actions,
    version: f.version ?? (f.nonceIndex !== undefined || f.nonceMode !== undefined ? 1 : 0),
    ...(f.nonceIndex !== undefined ? { nonceIndex: f.nonceIndex } : {}),
    ...(f.nonceMode !== undefined ? { nonceMode: f.nonceMode } : {}),
  });
  const signed = signTransaction(transaction, f.signWith ?? f.key);
  const bytes = encodeSignedTransaction(signed);
  return { transaction, signed, base64: base64Encode(bytes), bytes };
}

/** Sends a transaction with `send_tx` and returns its result (throws on any error). */
export async function sendTx(url: string, f: TxFields, waitUntil = 'FINAL'): Promise<Json> {
  const tx = await buildTx(url, f);
  return rpc(url, 'send_tx', { signed_tx_base64: tx.base64, wait_until: waitUntil });
}

/** Creates `accountId` (a sub-account of the signer) with `amount` and a new full-access key. */
export async function createAccount(
  url: string,
  funder: Signer,
  accountId: string,
  amount: bigint,
): Promise<{ accountId: string; key: KeyPair; result: unknown }> {
  const key = KeyPair.fromRandom();
  const result = await sendTx(url, {
    signerId: funder.accountId,
    key: funder.key,
    receiverId: accountId,
    actions: [
      { type: 'CreateAccount' },
      { type: 'Transfer', deposit: amount },
      {
        type: 'AddKey',
        publicKey: key.publicKey,
        accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
      },
    ],
  });
  return { accountId, key, result };
}

export interface TxRef {
  hash: string;
  signer: string;
}

/** `EXPERIMENTAL_tx_status` (with `receipts`) waiting for `waitUntil` (default FINAL). */
export async function txStatus(url: string, tx: TxRef, waitUntil = 'FINAL'): Promise<Json> {
  return rpc(url, 'EXPERIMENTAL_tx_status', {
    tx_hash: tx.hash,
    sender_account_id: tx.signer,
    wait_until: waitUntil,
  });
}

export const refOf = (result: Json): TxRef => ({
  hash: result.transaction.hash,
  signer: result.transaction.signer_id,
});

/** sha256 of the borsh transaction: its hash. */
export function txHashOf(signed: { transaction: { encode(): Uint8Array } }): Uint8Array {
  return new Uint8Array(createHash('sha256').update(signed.transaction.encode()).digest());
}

export function base64Of(signed: { encode(): Uint8Array }): string {
  return Buffer.from(signed.encode()).toString('base64');
}

/**
 * A nonce-safe signer for one account with several full-access keys (a key pool). Each key has its own
 * nonce, read from the chain on first use and kept locally; a send takes a free key, so concurrent sends never
 * share a nonce, and waits for one when all are busy. A refusal is read from nearcore's error object:
 * `InvalidNonce` takes the chain's nonce (or reads it again) and signs again, `Expired` fetches a recent block
 * hash and signs again. When the chain cannot tell whether a transaction landed, the key's nonce is read again
 * before its next use. Transactions are built and signed with @shadebox/primitives.
 */
import {
  type Action,
  base58Decode,
  base58Encode,
  base64Encode,
  createTransaction,
  encodeSignedTransaction,
  type KeyPair,
  signTransaction,
  transactionHash,
} from '@shadebox/primitives';
import { block } from './block.js';
import { ExpiredTransactionError, InvalidNonceError } from './invalid-transaction.js';
import type { Outcome } from './outcome-result.js';
import type { RpcClient } from './rpc-client.js';
import { RpcError } from './rpc-error.js';
import { sendTransaction, type TxExecutionLevel } from './send-transaction.js';
import { viewAccessKey } from './view-access-key.js';

export interface KeyPoolOptions {
  /** How long a fetched block hash is used for new transactions, in ms. Default 5000. */
  blockHashMaxAgeMs?: number;
  /** How many times one send signs again after `InvalidNonce` / `Expired`. Default 5. */
  maxRetries?: number;
}

export interface SendOptions {
  /** `send_tx`'s `wait_until`. Default `EXECUTED`. */
  waitUntil?: TxExecutionLevel;
  /** Time allowed for `send_tx`, in ms. Default three times the client's timeout. */
  timeoutMs?: number;
  /** Aborts the send (the key's nonce is read again before its next use). */
  signal?: AbortSignal;
}

/** A signed transaction ready to send. */
export interface SignedTx {
  /** borsh of the SignedTransaction. */
  bytes: Uint8Array;
  base64: string;
  /** base58 transaction hash. */
  hash: string;
  nonce: bigint;
  /** The signing key, `ed25519:…`. */
  publicKey: string;
}

interface PoolKey {
  keyPair: KeyPair;
  nonce?: bigint;
  busy: boolean;
}

export class KeyPool {
  readonly #keys: PoolKey[];
  readonly #waiters: Array<(key: PoolKey) => void> = [];
  readonly #blockHashMaxAgeMs: number;
  readonly #maxRetries: number;
  #blockHash?: { hash: Uint8Array; at: number };

  constructor(
    readonly rpc: RpcClient,
    readonly accountId: string,
    keys: KeyPair[],
    options: KeyPoolOptions = {},
  ) {
    this.#keys = keys.map((keyPair) => ({ keyPair, busy: false }));
    this.#blockHashMaxAgeMs = options.blockHashMaxAgeMs ?? 5_000;
    this.#maxRetries = options.maxRetries ?? 5;
  }

  get size(): number {
    return this.#keys.length;
  }

  /** The pool's public keys, `ed25519:…`. */
  get publicKeys(): string[] {
    return this.#keys.map((k) => k.keyPair.publicKeyString);
  }

  /** Adds keys (already on the account) to the pool; waiting sends take them at once. */
  addKeys(keys: KeyPair[]): void {
    for (const keyPair of keys) this.#release({ keyPair, busy: true });
  }

  /** Uses `hash` (bytes or base58) as the recent block hash of new transactions from now. */
  useBlockHash(hash: Uint8Array | string): void {
    this.#blockHash = { hash: typeof hash === 'string' ? base58Decode(hash) : hash, at: Date.now() };
  }

  /** Forgets every key's nonce: each is read from the chain again before its next use. */
  forgetNonces(): void {
    for (const key of this.#keys) key.nonce = undefined;
  }

  /**
   * Tells the pool that the chain's nonce of the key `publicKey` (`ed25519:…`) is at least `nonce` (an
   * `InvalidNonceError`'s `akNonce`, or a fresh `viewAccessKey`): its next transaction is signed above both
   * that and the nonces the pool already signed with. For callers that send what `sign` gives concurrently,
   * where forgetting the nonce would reuse ones still in flight. A key not in the pool is ignored.
   */
  raiseNonce(publicKey: string, nonce: bigint): void {
    const key = this.#keys.find((k) => k.keyPair.publicKeyString === publicKey);
    if (key && (key.nonce === undefined || key.nonce < nonce)) key.nonce = nonce;
  }

  /**
   * Signs one transaction with a free key and the key's next nonce, without sending it. Signing several in a
   * row from a one-key pool gives consecutive nonces; sending them is the caller's (send them in order).
   */
  async sign(receiverId: string, actions: Action[]): Promise<SignedTx> {
    const key = await this.#acquire();
    try {
      if (key.nonce === undefined) key.nonce = await this.#readNonce(key);
      const signed = await this.#sign(key, key.nonce + 1n, receiverId, actions);
      key.nonce = signed.nonce;
      return signed;
    } finally {
      this.#release(key);
    }
  }

  /** Signs and sends one transaction with a free key; resolves with the outcome at `waitUntil` (EXECUTED). */
  async send(receiverId: string, actions: Action[], options: SendOptions | number = {}): Promise<Outcome> {
    const o = typeof options === 'number' ? { timeoutMs: options } : options;
    const key = await this.#acquire();
    try {
      for (let attempt = 0; ; attempt++) {
        if (key.nonce === undefined) key.nonce = await this.#readNonce(key);
        const signed = await this.#sign(key, key.nonce + 1n, receiverId, actions);
        try {
          key.nonce = signed.nonce;
          return await sendTransaction(this.rpc, signed.base64, o.waitUntil ?? 'EXECUTED', {
            timeoutMs: o.timeoutMs ?? this.rpc.timeoutMs * 3,
            signal: o.signal,
          });
        } catch (e) {
          if (attempt < this.#maxRetries) {
            if (e instanceof InvalidNonceError) {
              key.nonce = e.akNonce >= 0n ? e.akNonce : undefined;
              continue;
            }
            if (e instanceof ExpiredTransactionError) {
              this.#blockHash = undefined;
              continue;
            }
          }
          // Whether the transaction landed is unknown: read the nonce again next time.
          if (!(e instanceof RpcError)) key.nonce = undefined;
          throw e;
        }
      }
    } finally {
      this.#release(key);
    }
  }

  #acquire(): Promise<PoolKey> {
    const free = this.#keys.find((k) => !k.busy);
    if (free) {
      free.busy = true;
      return Promise.resolve(free);
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #release(key: PoolKey): void {
    if (!this.#keys.includes(key)) this.#keys.push(key);
    const next = this.#waiters.shift();
    if (next) next(key);
    else key.busy = false;
  }

  async #sign(key: PoolKey, nonce: bigint, receiverId: string, actions: Action[]): Promise<SignedTx> {
    const tx = createTransaction({
      signerId: this.accountId,
      publicKey: key.keyPair.publicKey,
      nonce,
      receiverId,
      blockHash: await this.#recentBlockHash(),
      actions,
    });
    const bytes = encodeSignedTransaction(signTransaction(tx, key.keyPair));
    return {
      bytes,
      base64: base64Encode(bytes),
      hash: base58Encode(transactionHash(tx)),
      nonce,
      publicKey: key.keyPair.publicKeyString,
    };
  }

  async #recentBlockHash(): Promise<Uint8Array> {
    const now = Date.now();
    if (this.#blockHash && now - this.#blockHash.at < this.#blockHashMaxAgeMs) return this.#blockHash.hash;
    const final = await block(this.rpc, { finality: 'final' });
    const hash = base58Decode(final.header.hash);
    this.#blockHash = { hash, at: now };
    return hash;
  }

  async #readNonce(key: PoolKey): Promise<bigint> {
    return (await viewAccessKey(this.rpc, this.accountId, key.keyPair.publicKeyString)).nonce;
  }
}

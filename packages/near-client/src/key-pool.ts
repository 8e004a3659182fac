/**
 * A nonce-safe signer for one account with several full-access keys (a key pool). Each key has its own
 * nonce, read from the chain on first use and kept locally; a send takes a free key, so concurrent sends never
 * share a nonce, and waits for one when all are busy. A refusal is read from nearcore's error object:
 * `InvalidNonce` looks for the send's own transactions by hash, then takes the chain's nonce and signs again;
 * `Expired` fetches a recent block hash and signs again with the same nonce. When the chain cannot tell whether a transaction landed, the key's nonce is read again
 * before its next use; a `send_tx` without an answer is followed until the transaction is known executed or
 * dropped, and a dropped one is re-sent once (see `send`). Transactions are built and signed with @shadebox/primitives.
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
import { ChainUnavailableError } from './chain-unavailable-error.js';
import {
  ExpiredTransactionError,
  InvalidNonceError,
  InvalidTransactionError,
} from './invalid-transaction.js';
import type { Outcome } from './outcome-result.js';
import type { RpcClient } from './rpc-client.js';
import { RpcError } from './rpc-error.js';
import { sendTransaction, type TxExecutionLevel } from './send-transaction.js';
import {
  type FollowUpOptions,
  type FollowUpResult,
  followTransaction,
  TransactionDroppedError,
} from './transaction-follow-up.js';
import { txStatus } from './tx-status.js';
import { viewAccessKey } from './view-access-key.js';

export interface KeyPoolOptions {
  /** How long a fetched block hash is used for new transactions, in ms. Default 5000. */
  blockHashMaxAgeMs?: number;
  /** How many times one send signs again after `InvalidNonce` / `Expired`. Default 5. */
  maxRetries?: number;
  /** How a transaction without an answer is followed (transaction-follow-up.ts); `waitUntil` is the send's. */
  followUp?: Omit<FollowUpOptions, 'waitUntil' | 'signal'>;
}

export interface SendOptions {
  /** `send_tx`'s `wait_until`. Default `EXECUTED`. */
  waitUntil?: TxExecutionLevel;
  /** Time allowed for `send_tx`, in ms. Default three times the client's timeout. */
  timeoutMs?: number;
  /** Aborts the send (the key's nonce is read again before its next use). */
  signal?: AbortSignal;
  /** Called before a transaction the node dropped is re-sent (once), with the nonce the re-send uses. */
  onResend?: (info: ResendInfo) => void | Promise<void>;
}

/** A dropped transaction about to be re-sent. */
export interface ResendInfo {
  /** base58 hash of the dropped transaction. */
  txHash: string;
  /** The nonce of the re-send (the dropped one's own while the key allows it). */
  nonce: bigint;
  /** The signing key, `ed25519:…`. */
  publicKey: string;
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
  readonly #followUp: Omit<FollowUpOptions, 'waitUntil' | 'signal'>;
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
    this.#followUp = options.followUp ?? {};
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

  /**
   * Signs and sends one transaction with a free key; resolves with the outcome at `waitUntil` (EXECUTED).
   *
   * Never two transactions of one send that could both execute: a send signs again with a new nonce only when
   * every transaction it signed before is known unable to execute. So:
   * - `InvalidNonce` (the nonce is used on chain): first the send's own transactions are looked for by hash
   *   (one of them may have used it: its answer was lost, or the transport's retry reached a node that had
   *   executed it); one found is followed and its outcome is the answer; none found, none can execute any
   *   more (their nonces are used), and the send signs again above the chain's nonce.
   * - Another refusal after a request of the same `send_tx` failed (it may have reached a node that took the
   *   transaction): followed with `tx`; executed, its outcome is the answer, else the refusal is thrown.
   * - `Expired` (the block hash is too old): signed again with the same nonce and a recent block hash, as an
   *   earlier copy may still be in a pool: whichever lands first takes the nonce.
   * - No answer (timeout, lost response, no endpoint): followed with `tx` until known executed (its outcome is
   *   the answer) or known dropped; a dropped one is re-sent once, on the same key with the dropped
   *   transaction's nonce when the key still allows it, else with the key's next nonce after one more look for
   *   every transaction of the send (the nonce is used: by one of them, or none of them can execute).
   */
  async send(receiverId: string, actions: Action[], options: SendOptions | number = {}): Promise<Outcome> {
    const o = typeof options === 'number' ? { timeoutMs: options } : options;
    const waitUntil = o.waitUntil ?? 'EXECUTED';
    const key = await this.#acquire();
    try {
      /** Every transaction this send signed that may have reached a node, oldest first. */
      const sent: SignedTx[] = [];
      /** The transaction the node dropped, once it has been re-sent. */
      let dropped: SignedTx | undefined;
      for (let attempt = 0; ; attempt++) {
        if (key.nonce === undefined) key.nonce = await this.#readNonce(key);
        const signed = await this.#sign(key, key.nonce + 1n, receiverId, actions);
        sent.push(signed);
        try {
          key.nonce = signed.nonce;
          return await sendTransaction(this.rpc, signed.base64, waitUntil, {
            timeoutMs: o.timeoutMs ?? this.rpc.timeoutMs * 3,
            signal: o.signal,
          });
        } catch (e) {
          if (
            e instanceof InvalidTransactionError &&
            !(e instanceof InvalidNonceError || e instanceof ExpiredTransactionError) &&
            e.failedBefore > 0 &&
            !o.signal?.aborted
          ) {
            // Refused, but an earlier request of this send_tx may have reached a node that took it: its fate
            // decides (executed: the answer; dropped: the refusal stands).
            const fate = await this.#follow(key, signed, waitUntil, o.signal);
            if (fate.state === 'executed') return fate.outcome;
          }
          if (e instanceof InvalidNonceError && !o.signal?.aborted) {
            const own = await this.#findOwn(key, sent, waitUntil, o.signal);
            if (own) return own;
            // None of the send's transactions executed, and none can: their nonces are used on chain.
            sent.length = 0;
            dropped = undefined;
            key.nonce = e.akNonce >= 0n ? e.akNonce : undefined;
          }
          if (attempt < this.#maxRetries) {
            if (e instanceof InvalidNonceError) continue;
            if (e instanceof ExpiredTransactionError) {
              this.#blockHash = undefined;
              key.nonce = signed.nonce - 1n;
              continue;
            }
          }
          if (e instanceof ChainUnavailableError && !o.signal?.aborted) {
            const fate = await this.#follow(key, signed, waitUntil, o.signal);
            if (fate.state === 'executed') return fate.outcome;
            if (dropped) {
              key.nonce = undefined;
              throw new TransactionDroppedError([dropped.hash, signed.hash], this.accountId);
            }
            dropped = signed;
            const next = await this.#resendNonce(key, signed, sent, waitUntil, o.signal);
            if ('outcome' in next) return next.outcome;
            if (next.nonce > signed.nonce) sent.length = 0;
            await o.onResend?.({ txHash: signed.hash, nonce: next.nonce, publicKey: signed.publicKey });
            key.nonce = next.nonce - 1n;
            this.#blockHash = undefined;
            continue;
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

  /** Follows a transaction that got no answer; when its fate stays unknown the key's nonce is read again. */
  async #follow(
    key: PoolKey,
    signed: SignedTx,
    waitUntil: TxExecutionLevel,
    signal: AbortSignal | undefined,
  ): Promise<FollowUpResult> {
    try {
      return await followTransaction(this.rpc, signed.hash, this.accountId, {
        ...this.#followUp,
        waitUntil,
        signal,
      });
    } catch (e) {
      key.nonce = undefined;
      throw e;
    }
  }

  /**
   * After the chain's nonce of the key reached the nonces of `sent`: the one of them that executed (newest
   * first; the chain knows it, since its nonce is used), followed to `waitUntil`; undefined when the chain
   * knows none of them. A look that fails leaves the fate unknown: the error is thrown.
   */
  async #findOwn(
    key: PoolKey,
    sent: SignedTx[],
    waitUntil: TxExecutionLevel,
    signal: AbortSignal | undefined,
  ): Promise<Outcome | undefined> {
    for (const candidate of [...sent].reverse()) {
      try {
        await txStatus(
          this.rpc,
          {
            txHash: candidate.hash,
            senderAccountId: this.accountId,
            waitUntil: 'NONE',
          },
          { signal },
        );
      } catch (e) {
        if (e instanceof RpcError && e.causeName === 'UNKNOWN_TRANSACTION') continue;
        key.nonce = undefined;
        throw e;
      }
      const fate = await this.#follow(key, candidate, waitUntil, signal);
      if (fate.state === 'executed') return fate.outcome;
    }
    return undefined;
  }

  /**
   * The nonce of the re-send of `dropped`: its own while the key's nonce on chain is below it (whichever of the
   * two lands first takes it), else the key's next one — after one more look for every transaction of the
   * send, the only transactions of this key that could have used the nonce while the pool held the key.
   */
  async #resendNonce(
    key: PoolKey,
    dropped: SignedTx,
    sent: SignedTx[],
    waitUntil: TxExecutionLevel,
    signal: AbortSignal | undefined,
  ): Promise<{ nonce: bigint } | { outcome: Outcome }> {
    const onChain = await this.#readNonce(key);
    if (onChain < dropped.nonce) return { nonce: dropped.nonce };
    const own = await this.#findOwn(key, sent, waitUntil, signal);
    if (own) return { outcome: own };
    return { nonce: onChain + 1n };
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

/**
 * Accepting transactions and waiting for them: the checks nearcore's RPC runs before a transaction enters the
 * pool (validity period, then the runtime's checks on the head state), idempotent resubmission, and waits
 * released as blocks reach the requested `wait_until` level.
 */
import { ShadeboxError } from '@shadebox/errors';
import { base58Encode, type DecodedSignedTransaction } from '@shadebox/primitives';
import { invalidTx } from '../runtime/errors.js';
import { validateTransaction, verifyAndChargeTransaction } from '../runtime/verify-transaction.js';
import type { BlockProducer } from './block-producer.js';
import type { Chain } from './chain.js';
import type { TxPool } from './tx-pool.js';
import { levelSatisfies, type TxExecutionLevel, type TxStatus, transactionStatus } from './tx-status.js';

const NEEDS_FINAL_BLOCK = new Set<TxExecutionLevel>(['INCLUDED_FINAL', 'EXECUTED', 'FINAL']);

export class TransactionTimeoutError extends ShadeboxError<{ txHash: string }> {
  constructor(readonly txHash: string) {
    super(`timed out waiting for transaction ${txHash}`, { details: { txHash } });
  }
}

interface Waiter {
  hash: Uint8Array;
  wanted: TxExecutionLevel;
  /** Height of the block that included the transaction, once one did. */
  includedHeight?: number;
  resolve(status: TxStatus): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout;
}

export class TransactionService {
  private readonly waiters = new Set<Waiter>();
  producer: BlockProducer | undefined;

  constructor(
    private readonly chain: Chain,
    private readonly pool: TxPool,
  ) {
    chain.on('block', () => this.release());
    // A revert may have removed transactions someone waits on: forget where they were included; it is
    // learnt again (hasActiveWaiters, release) from the reverted chain.
    chain.on('rewind', () => {
      for (const w of this.waiters) w.includedHeight = undefined;
    });
  }

  /**
   * Whether someone waits on a transaction that more blocks would move on: one on chain but not yet in a final
   * block (at most two more blocks). A transaction still in the pool is work by itself. After its block is
   * final, its receipts keep the producer busy by themselves; a receipt parked on a yield waits for its resume,
   * which more blocks do not bring (automine must not race 200 blocks to its timeout: it makes them at NEAR's
   * pace instead, block-producer.ts). A transaction that is neither pooled nor on chain — never sent, or
   * dropped at inclusion (a nonce another transaction of the key took first) — no block will bring either:
   * its waiter waits out the timeout without blocks. Counting it made automine race empty blocks back to back
   * for the whole `polling_timeout` (over 20,000 in 10 s), past every client's block hash plus the 100-block
   * validity period, so the client's re-send of the same transaction after the TIMEOUT_ERROR came back
   * `Expired`.
   */
  hasActiveWaiters(): boolean {
    const finalHeight = this.chain.finalHeight('final');
    for (const w of this.waiters) {
      const height = w.includedHeight ?? this.chain.transaction(w.hash)?.height;
      if (height !== undefined && height > finalHeight) return true;
    }
    return false;
  }

  /**
   * Checks a decoded transaction and puts it in the pool. Resubmitting a transaction that is already pending
   * or on chain is accepted again without effect. Throws `InvalidTxError`. With `checkOnly` the transaction is
   * only checked, not pooled (nearcore's `send_tx_internal(tx, check_only = true)`, used by `tx` on a signed
   * transaction it does not know).
   */
  submit(
    decoded: DecodedSignedTransaction,
    size: number,
    options: { checkOnly?: boolean } = {},
  ): { hash: string; alreadyKnown: boolean } {
    const { signedTransaction: stx, hash } = decoded;
    const hashB58 = base58Encode(hash);
    if (this.pool.has(hash) || this.chain.transaction(hash)) return { hash: hashB58, alreadyKnown: true };

    const head = this.chain.head;
    const base = this.chain.blockByHash(base58Encode(stx.transaction.blockHash));
    if (!base || this.chain.blockByHeight(base.height)?.hash !== base.hash) throw invalidTx.expired();
    if (head.height > base.height + this.chain.genesis.transaction_validity_period) throw invalidTx.expired();

    const gasPrice = BigInt(head.gasPrice);
    const cost = validateTransaction(this.chain.params, stx, hash, size, gasPrice);
    const state = this.chain.stateAt(head.height);
    verifyAndChargeTransaction(this.chain.params, state, stx, cost, BigInt(head.height + 1));
    state.rollback();
    if (options.checkOnly) return { hash: hashB58, alreadyKnown: false };

    this.pool.add({ signedTransaction: stx, hash, size, signatureVerified: true });
    this.producer?.notify();
    return { hash: hashB58, alreadyKnown: false };
  }

  /** The current status, or undefined when the transaction is neither pending nor on chain. */
  status(hash: Uint8Array): TxStatus | undefined {
    const status = transactionStatus(this.chain, hash);
    if (status) return status;
    return this.pool.has(hash) ? { level: 'NONE' } : undefined;
  }

  /** The error `close()` ended the waits with; later waits end with it at once. */
  private closedBy: unknown;

  /** Resolves once the transaction reaches `wanted`; rejects with TransactionTimeoutError after `timeoutMs`. */
  wait(hash: Uint8Array, wanted: TxExecutionLevel, timeoutMs: number): Promise<TxStatus> {
    const now = this.status(hash);
    if (now && levelSatisfies(now.level, wanted)) return Promise.resolve(now);
    // Closed: no block will come to satisfy the wait.
    if (this.closedBy !== undefined) return Promise.reject(this.closedBy);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        hash,
        wanted,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          reject(new TransactionTimeoutError(base58Encode(hash)));
        }, timeoutMs),
      };
      this.waiters.add(waiter);
      this.producer?.notify();
    });
  }

  /** Rejects every waiter (shutdown). */
  close(error: unknown): void {
    this.closedBy = error;
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.reject(error);
    }
    this.waiters.clear();
  }

  private release(): void {
    const finalHeight = this.chain.finalHeight('final');
    for (const w of this.waiters) {
      if (w.includedHeight === undefined) {
        const tx = this.chain.transaction(w.hash);
        if (!tx) continue;
        w.includedHeight = tx.height;
      }
      // Levels that need the including block final cannot be reached before it is.
      if (NEEDS_FINAL_BLOCK.has(w.wanted) && w.includedHeight > finalHeight) continue;
      const status = transactionStatus(this.chain, w.hash);
      if (status && levelSatisfies(status.level, w.wanted)) {
        clearTimeout(w.timer);
        this.waiters.delete(w);
        w.resolve(status);
      }
    }
  }
}

/**
 * One `/call` from admission to answer: its cost (call-cost.ts) is admitted against the agent's balance
 * (admission-queue.ts), the transaction is signed and sent by the key pool (which follows a send without an
 * answer and re-sends a dropped transaction once), and the reservation is held until the transaction is
 * FINAL, refunds included, so that the next balance read shows what the call really spent.
 *
 * A transaction the node refuses for the balance (`NotEnoughBalance`, `LackBalanceForState`: another spender
 * got there first, or a refund is later than expected) was not executed: the call goes back to the head of
 * the queue, up to `MAX_BALANCE_REFUSALS` times, and is decided on a fresh balance.
 */
import {
  type InvalidTransactionError,
  InvalidTransactionError as InvalidTx,
  type KeyPool,
  outcomeResult,
  type RpcClient,
  txStatus,
} from '@shadebox/near-client';
import type { AdmissionQueue } from './admission-queue.js';
import { type CallPricing, callCost, fetchCallPricing, fetchGasPrice } from './call-cost.js';
import type { ContractRequest } from './contract-request.js';
import type { AgentApiLogger } from './logger.js';

/** How many times one call goes back to the queue after the chain refused it for the balance. */
export const MAX_BALANCE_REFUSALS = 3;
/** How long a read gas price is used for new calls, in ms. */
const GAS_PRICE_MAX_AGE_MS = 2_000;

const BALANCE_REFUSALS = new Set(['NotEnoughBalance', 'LackBalanceForState']);

export interface ContractCallerOptions {
  rpc: RpcClient;
  admission: AdmissionQueue;
  log: AgentApiLogger;
  /** Aborts the waits for finality when the service stops. */
  stopSignal?: AbortSignal;
}

export class ContractCaller {
  readonly #o: ContractCallerOptions;
  #pricing?: Promise<CallPricing>;
  #gasPrice?: { price: Promise<bigint>; at: number };

  constructor(options: ContractCallerOptions) {
    this.#o = options;
  }

  /** The cost of `req` signed by `signerId`, at the latest gas price. */
  async cost(signerId: string, req: ContractRequest, args: Uint8Array): Promise<bigint> {
    const [pricing, gasPrice] = await Promise.all([this.#callPricing(), this.#latestGasPrice()]);
    return callCost(
      pricing,
      {
        signerId,
        receiverId: req.contractId,
        methodName: req.methodName,
        argsLength: args.length,
        gas: req.gas,
        deposit: 0n,
      },
      gasPrice,
    );
  }

  /** Runs the call: resolves with its result, or throws the reason it failed. */
  async call(pool: KeyPool, req: ContractRequest): Promise<unknown> {
    const { admission, log } = this.#o;
    const args = Buffer.from(JSON.stringify(req.args));
    const cost = await this.cost(pool.accountId, req, args);
    let admitted = await admission.admit(cost);
    for (let refusals = 0; ; refusals++) {
      let outcome: unknown;
      try {
        outcome = await pool.send(
          req.contractId,
          [{ type: 'FunctionCall', methodName: req.methodName, args, gas: req.gas, deposit: 0n }],
          {
            onResend: (info) =>
              log.warn(
                { route: 'call', methodName: req.methodName, txHash: info.txHash, nonce: String(info.nonce) },
                'call: the node dropped the transaction; re-sending it once',
              ),
          },
        );
      } catch (e) {
        if (isBalanceRefusal(e) && refusals < MAX_BALANCE_REFUSALS) {
          log.info(
            { route: 'call', methodName: req.methodName, reason: e.variant, inFlight: admission.inFlight },
            'call: refused for the balance; waiting for calls in flight to settle',
          );
          // Back to the head of the queue before the reservation goes, so no later call takes the turn.
          const again = admission.admit(cost, { first: true });
          admitted.settle();
          admitted = await again;
          continue;
        }
        admitted.settle();
        throw e;
      }
      admitted.included();
      this.#settleWhenFinal(pool.accountId, outcome, admitted.settle);
      return outcomeResult(outcome);
    }
  }

  /** Releases the reservation once the transaction is FINAL (its refunds executed), or its wait fails. */
  #settleWhenFinal(signerId: string, outcome: unknown, settle: () => void): void {
    const hash = (outcome as { transaction?: { hash?: unknown } })?.transaction?.hash;
    if (typeof hash !== 'string') {
      settle();
      return;
    }
    const { rpc, stopSignal } = this.#o;
    txStatus(
      rpc,
      { txHash: hash, senderAccountId: signerId, waitUntil: 'FINAL' },
      { timeoutMs: rpc.timeoutMs * 3, signal: stopSignal },
    ).then(settle, settle);
  }

  #callPricing(): Promise<CallPricing> {
    if (!this.#pricing) {
      this.#pricing = fetchCallPricing(this.#o.rpc);
      this.#pricing.catch(() => {
        this.#pricing = undefined;
      });
    }
    return this.#pricing;
  }

  #latestGasPrice(): Promise<bigint> {
    const now = Date.now();
    if (!this.#gasPrice || now - this.#gasPrice.at > GAS_PRICE_MAX_AGE_MS) {
      const price = fetchGasPrice(this.#o.rpc);
      const entry = { price, at: now };
      this.#gasPrice = entry;
      price.catch(() => {
        if (this.#gasPrice === entry) this.#gasPrice = undefined;
      });
    }
    return this.#gasPrice.price;
  }
}

function isBalanceRefusal(e: unknown): e is InvalidTransactionError {
  return e instanceof InvalidTx && BALANCE_REFUSALS.has(e.variant);
}

/**
 * The agent API's POST routes and their handlers (`getAccountId`, `getBalance`, `call`, `view`), and the
 * answer of a route to a request body — the same on the fast path and through node:http: 503 `not_ready`
 * until boot is done, then the handler's result or its error mapped to the JSON error shape.
 */
import { ShadeboxError } from '@shadebox/errors';
import {
  availableBalance,
  type KeyPool,
  type RpcClient,
  TransactionDroppedError,
  TransactionFateUnknownError,
  viewAccount,
  viewFunction,
} from '@shadebox/near-client';
import { AdmissionQueue, InsufficientBalanceError, QueueFullError } from './admission-queue.js';
import { parseJsonBody } from './body.js';
import type { AgentApiStatus } from './boot.js';
import { builtInAgentContractCheck } from './built-in-agent-contract.js';
import { ContractCaller } from './contract-call.js';
import { contractRequest } from './contract-request.js';
import { type Answer, errorAnswer, success } from './error-answer.js';
import { HttpError } from './http-error.js';
import type { AgentApiLogger } from './logger.js';
import { builtInRequestSignature, REQUEST_SIGNATURE } from './request-signature-args.js';

/** How many `/call`s may wait for the agent's balance at once (more are refused with 503 `queue_full`). */
export const DEFAULT_CALL_QUEUE_SIZE = 1024;

export type Handler = (body: unknown) => unknown;

export interface Route {
  method: 'GET' | 'POST';
  handler: Handler;
}

export interface RouteContext {
  rpc: RpcClient;
  /** The boot state (read on every request). */
  state: AgentApiStatus;
  /** The agent account's key pool, once booted. */
  agentPool(): KeyPool | undefined;
  agentContractId: string;
  /** Contracts `/call` and `/view` may name (the agent contract included). */
  allowedContracts: ReadonlySet<string>;
  /** Where `/call` failures are logged (one line each). */
  log?: AgentApiLogger;
  /** How many `/call`s may wait for the balance (default `DEFAULT_CALL_QUEUE_SIZE`). */
  callQueueSize?: number;
  /** Aborted when the service stops (ends the background waits of settled calls). */
  stopSignal?: AbortSignal;
}

export function agentRoutes(ctx: RouteContext): Record<string, Route> {
  const { rpc, state } = ctx;
  const request = (body: unknown, withGas: boolean) =>
    contractRequest(body, withGas, ctx.agentContractId, ctx.allowedContracts);
  const log = ctx.log ?? silent;
  const admission = new AdmissionQueue({
    maxQueued: ctx.callQueueSize ?? DEFAULT_CALL_QUEUE_SIZE,
    readBalance: async () => {
      const account = await viewAccount(rpc, state.accountId!);
      return account ? availableBalance(account) : 0n;
    },
  });
  const caller = new ContractCaller({ rpc, admission, log, stopSignal: ctx.stopSignal });
  const isBuiltIn = builtInAgentContractCheck(rpc);
  return {
    getAccountId: { method: 'POST', handler: () => ({ accountId: state.accountId }) },
    getBalance: {
      method: 'POST',
      handler: async () => {
        const account = await viewAccount(rpc, state.accountId!);
        return { balance: account ? availableBalance(account).toString() : '0' };
      },
    },
    call: {
      method: 'POST',
      handler: async (body) => {
        let methodName: unknown = (body as { methodName?: unknown } | null)?.methodName;
        try {
          let req = request(body, true);
          methodName = req.methodName;
          // The built-in contracts' arguments are checked before anything is paid; other contracts get them as sent.
          if (req.methodName === REQUEST_SIGNATURE && (await isBuiltIn(req.contractId))) {
            req = builtInRequestSignature(req);
          }
          return await caller.call(ctx.agentPool()!, req);
        } catch (e) {
          const error = callError(e);
          // Errors that are no ShadeboxError are bugs, logged once where they become a 500.
          if (error instanceof ShadeboxError) {
            // Logged as answered: the same status, code and sentence (nearcore's object stays in `details`).
            const answer = errorAnswer(error, log);
            const { code, message } = (answer.body as { error: { code: string; message: string } }).error;
            log.warn(
              {
                route: 'call',
                methodName: typeof methodName === 'string' ? methodName.slice(0, 256) : undefined,
                status: answer.status,
                code,
                reason: message,
              },
              'call failed',
            );
          }
          throw error;
        }
      },
    },
    view: {
      method: 'POST',
      handler: async (body) => {
        const req = request(body, false);
        return viewFunction(rpc, req.contractId, req.methodName, req.args);
      },
    },
  };
}

/** The HTTP error of the admission and retry failures; others go to the error mapping unchanged. */
function callError(e: unknown): unknown {
  if (e instanceof InsufficientBalanceError) {
    return new HttpError(422, 'insufficient_balance', e.message);
  }
  if (e instanceof QueueFullError) {
    return new HttpError(503, 'queue_full', e.message, undefined, { 'retry-after': '1' });
  }
  if (e instanceof TransactionDroppedError) {
    return new HttpError(
      503,
      'transaction_dropped',
      `${e.message}: the call did not execute; retry it`,
      undefined,
      {
        'retry-after': '1',
      },
    );
  }
  if (e instanceof TransactionFateUnknownError) {
    return new HttpError(504, 'chain_timeout', e.message);
  }
  return e;
}

const silent: AgentApiLogger = { info() {}, warn() {}, error() {} };

/** The answer of a POST route to a request body, the same on the fast path and through node:http. */
export function answerPost(
  state: AgentApiStatus,
  handler: Handler,
  text: string | Buffer,
  log: AgentApiLogger,
): Answer | Promise<Answer> {
  if (!state.ready) {
    return {
      status: 503,
      body: {
        error: {
          code: 'not_ready',
          message: `the agent is booting (stage ${state.stage}): retry in a second; GET /api/agent/health shows the stage`,
          stage: state.stage,
        },
      },
      headers: { 'retry-after': '1' },
    };
  }
  try {
    const result = handler(parseJsonBody(text));
    return result instanceof Promise ? result.then(success, (e) => errorAnswer(e, log)) : success(result);
  } catch (e) {
    return errorAnswer(e, log);
  }
}

/**
 * The agent API's POST routes and their handlers (`getAccountId`, `getBalance`, `call`, `view`), and the
 * answer of a route to a request body — the same on the fast path and through node:http: 503 `not_ready`
 * until boot is done, then the handler's result or its error mapped to the JSON error shape.
 */
import {
  availableBalance,
  type KeyPool,
  outcomeResult,
  type RpcClient,
  viewAccount,
  viewFunction,
} from '@shadebox/near-client';
import { parseJsonBody } from './body.js';
import type { AgentApiStatus } from './boot.js';
import { contractRequest } from './contract-request.js';
import { type Answer, errorAnswer, success } from './error-answer.js';
import type { AgentApiLogger } from './logger.js';

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
}

export function agentRoutes(ctx: RouteContext): Record<string, Route> {
  const { rpc, state } = ctx;
  const request = (body: unknown, withGas: boolean) =>
    contractRequest(body, withGas, ctx.agentContractId, ctx.allowedContracts);
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
        const req = request(body, true);
        const outcome = await ctx.agentPool()!.send(req.contractId, [
          {
            type: 'FunctionCall',
            methodName: req.methodName,
            args: Buffer.from(JSON.stringify(req.args)),
            gas: req.gas,
            deposit: 0n,
          },
        ]);
        return outcomeResult(outcome);
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

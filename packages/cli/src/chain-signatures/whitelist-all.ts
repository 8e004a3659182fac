/**
 * `shadebox up --whitelist-all`, for development: every implicit account that asks is whitelisted in the
 * 2.0 agent contract, as if its owner ran `shadebox whitelist` for it. "Asks" is seen on chain, since
 * ShadeClient's `isWhitelisted()` is a view: an implicit account (64 hex digits) that signs or receives a
 * transaction — the sponsor's `fund()` transfer that creates it, or its own `register_agent` — is
 * whitelisted by the owner in the next blocks. The contract stays the template's (no dev-mode flag in its
 * state); a `register_agent` sent before the whitelisting lands fails once and succeeds when retried, as the
 * template's loop does every 10 s.
 */

import { KeyPool, outcomeResult, RpcClient, viewFunction } from '@shadebox/near-client';
import type { Logger, RunningNode } from '@shadebox/node';
import { KeyPair, TGAS } from '@shadebox/primitives';

const IMPLICIT = /^[0-9a-f]{64}$/;

/** The part of a block's chunk results the watch reads. */
interface ExecutedChunk {
  transactions: ReadonlyArray<{
    signedTransaction: { transaction: { signerId: string; receiverId: string } };
  }>;
}

export interface WhitelistAllOptions {
  node: RunningNode;
  agentContractId: string;
  owner: { accountId: string; secretKey: string };
  log: Logger;
}

/** Starts the watch; returns what stops it (after the whitelisting in flight). */
export function whitelistAll(o: WhitelistAllOptions): () => Promise<void> {
  const rpc = new RpcClient([o.node.rpcUrl], 30_000);
  const pool = new KeyPool(rpc, o.owner.accountId, [KeyPair.fromString(o.owner.secretKey)]);
  const seen = new Set<string>();
  let queue: Promise<void> = Promise.resolve();
  let stopped = false;

  const whitelist = async (accountId: string) => {
    if (stopped) return;
    try {
      const listed = (await viewFunction(
        rpc,
        o.agentContractId,
        'get_whitelisted_agents_for_local',
        {},
      )) as string[];
      if (listed.includes(accountId)) return;
      outcomeResult(
        await pool.send(o.agentContractId, [
          {
            type: 'FunctionCall',
            methodName: 'whitelist_agent_for_local',
            args: new TextEncoder().encode(JSON.stringify({ account_id: accountId })),
            gas: 30n * TGAS,
            deposit: 0n,
          },
        ]),
      );
      o.log.info(
        { accountId, agentContractId: o.agentContractId },
        'whitelist-all: agent account whitelisted',
      );
    } catch (error) {
      // Asked again by its next transaction.
      seen.delete(accountId);
      if (!stopped) o.log.warn({ accountId, err: error }, 'whitelist-all: could not whitelist');
    }
  };

  const onExecuted = (_block: unknown, results: readonly ExecutedChunk[]) => {
    for (const chunk of results) {
      for (const { signedTransaction } of chunk.transactions) {
        const { signerId, receiverId } = signedTransaction.transaction;
        for (const id of [signerId, receiverId]) {
          if (!IMPLICIT.test(id) || seen.has(id)) continue;
          seen.add(id);
          queue = queue.then(() => whitelist(id));
        }
      }
    }
  };
  o.node.chain.on('executed', onExecuted);
  return async () => {
    stopped = true;
    o.node.chain.off('executed', onExecuted);
    await queue;
  };
}

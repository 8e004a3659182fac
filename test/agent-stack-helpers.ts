/** Shared by the agent API end-to-end tests: a node with chain signatures, owner transactions, waits, logs. */
import type { AgentApiLogger, RunningAgentApi } from '@shadebox/agent-api';
import { KeyPool, RpcClient } from '@shadebox/near-client';
import { type RunningNode, silentLogger, startNode } from '@shadebox/node';
import { type Action, KeyPair, TGAS } from '@shadebox/primitives';
import { startChainSignatures } from '../packages/cli/src/chain-signatures/service.js';

export interface Chain {
  node: RunningNode;
  root: { accountId: string; secretKey: string };
  /** Sends as the root account (`test.near`, the owner of the agent contract). */
  owner: KeyPool;
  rpc: RpcClient;
  /** The MPC's secp256k1 root public key. */
  signerKey: string;
  stop(): Promise<void>;
}

/** An in-memory node with signer.test.near, agent.test.near and the MPC responder. */
export async function startChain(rpcPort = 0): Promise<Chain> {
  const node = await startNode({ memory: true, rpcPort, log: silentLogger });
  const [r] = node.accounts;
  const cs = await startChainSignatures({
    rpcUrl: node.rpcUrl,
    home: null,
    root: { accountId: r.accountId, secretKey: r.secretKey },
    log: silentLogger,
  });
  const rpc = new RpcClient([node.rpcUrl], 10_000);
  return {
    node,
    root: { accountId: r.accountId, secretKey: r.secretKey },
    owner: new KeyPool(rpc, r.accountId, [KeyPair.fromString(r.secretKey)]),
    rpc,
    signerKey: cs.publicKeys.secp256k1,
    async stop() {
      await cs.stop();
      await node.stop();
    },
  };
}

export function fnCall(methodName: string, args: unknown): Action {
  return {
    type: 'FunctionCall',
    methodName,
    args: Buffer.from(JSON.stringify(args)),
    gas: 100n * TGAS,
    deposit: 0n,
  };
}

/** A logger appending each entry as a JSON line to `lines`. */
export function captureLogs(lines: string[] = []): { log: AgentApiLogger; lines: string[] } {
  const push = (level: string) => (fields: object, message?: string) =>
    lines.push(JSON.stringify({ level, message, ...fields }));
  return { log: { info: push('info'), warn: push('warn'), error: push('error') }, lines };
}

/** The agent account id once the service is registered; fails with its status after `ms`. */
export async function ready(api: RunningAgentApi, ms = 20_000): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not ready: ${JSON.stringify(api.status())}`)), ms);
  });
  try {
    return await Promise.race([api.onReady(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

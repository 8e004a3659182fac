/**
 * The services `shadebox up` runs on its node: chain signatures (contracts and MPC responder), the local
 * codehash approved in the agent contract by its owner, and the agent API funded by and registered through
 * the genesis account. Stopped in reverse order.
 */
import { createHash } from 'node:crypto';
import { KeyPool, outcomeResult, RpcClient, viewFunction } from '@shadebox/near-client';
import type { Logger, RunningNode } from '@shadebox/node';
import { KeyPair, TGAS } from '@shadebox/primitives';
import type { SignerSource } from './chain-signatures/signer-source.js';
import type { RunningService } from './run-node.js';

/** The codehash a local agent registers with unless AGENT_CODEHASH says otherwise. */
export const LOCAL_AGENT_CODEHASH = createHash('sha256').update('shadebox local agent').digest('hex');

export interface StackOptions {
  agentPort: number;
  /** AGENT_CODEHASH from the environment, if set. */
  codehash?: string;
  /** NEAR's signer build to run instead of Shadebox's (`--signer-wasm`, `--signer-from`). */
  signerSource?: SignerSource;
}

export async function startStackServices(
  node: RunningNode,
  log: Logger,
  o: StackOptions,
): Promise<RunningService> {
  const { startChainSignaturesOn } = await import('./chain-signatures/service.js');
  const { loadAgentApiConfig, startAgentApi } = await import('@shadebox/agent-api');
  const [root] = node.accounts;
  const cs = await startChainSignaturesOn(node, { log, signerSource: o.signerSource });
  let api: Awaited<ReturnType<typeof startAgentApi>> | undefined;
  try {
    const codehash = o.codehash ?? LOCAL_AGENT_CODEHASH;
    await approveCodehash(node.rpcUrl, root, cs.agentContractId, codehash);
    const config = loadAgentApiConfig({
      CHAIN_ACCOUNT_ID: root.accountId,
      CHAIN_ACCOUNT_SECRET_KEY: root.secretKey,
      AGENT_CONTRACT_ID: cs.agentContractId,
      NEAR_RPC_URL: node.rpcUrl,
      AGENT_CODEHASH: codehash,
      AGENT_API_PORT: String(o.agentPort),
      AGENT_API_HOST: '127.0.0.1',
      TEE_MODE: 'local',
    });
    api = await startAgentApi(config, { log });
  } catch (error) {
    await cs.stop();
    throw error;
  }
  const running = api;
  return {
    ready: {
      agentApiUrl: running.url,
      agentContractId: cs.agentContractId,
      mpcContractId: cs.mpcContractId,
      chainAccountId: root.accountId,
    },
    summary: [
      ['Agent API', running.url],
      ['Agent contract', cs.agentContractId],
      ['MPC contract', cs.mpcContractId],
      ['MPC responder', cs.responderAccountId],
      ['MPC root keys', cs.publicKeys.secp256k1],
      ['', cs.publicKeys.ed25519],
      ['Chain account', root.accountId],
    ],
    later: running.onReady().then((agentAccountId) => ({
      json: { event: 'agent-ready', agentAccountId },
      text: `Agent account ${agentAccountId} registered in ${cs.agentContractId}`,
    })),
    stop: async () => {
      await running.stop();
      await cs.stop();
    },
  };
}

/** The owner approves the stack's codehash once (the agent contract refuses to approve it twice). */
async function approveCodehash(
  rpcUrl: string,
  root: { accountId: string; secretKey: string },
  agentContractId: string,
  codehash: string,
): Promise<void> {
  const rpc = new RpcClient([rpcUrl], 30_000);
  const approved = (await viewFunction(rpc, agentContractId, 'get_approved_codehashes', {
    from_index: 0,
    limit: 1000,
  })) as string[];
  if (approved.includes(codehash)) return;
  const owner = new KeyPool(rpc, root.accountId, [KeyPair.fromString(root.secretKey)]);
  const outcome = await owner.send(agentContractId, [
    {
      type: 'FunctionCall',
      methodName: 'approve_codehash',
      args: new TextEncoder().encode(JSON.stringify({ codehash })),
      gas: 30n * TGAS,
      deposit: 0n,
    },
  ]);
  outcomeResult(outcome);
}

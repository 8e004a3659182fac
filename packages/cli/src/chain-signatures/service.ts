/**
 * Chain signatures on a running node (`shadebox node --mpc`, `shadebox up`): the responder's root keys (kept
 * in the home; a new home and an in-memory node derive them from the seed, `--seed`), the contracts deployed
 * and initialised when absent, and the MPC responder answering sign requests. Everything goes through the
 * node's JSON-RPC.
 */
import { join } from 'node:path';
import type { Logger, RunningNode } from '@shadebox/node';
import { loadOrCreateAccounts } from './accounts.js';
import { type AgentContractSource, resolveInitArgs } from './agent-contract.js';
import { deployChainSignatures } from './deploy.js';
import { readSignerCode, type SignerSource } from './signer-source.js';

export interface ChainSignatures {
  mpcContractId: string;
  agentContractId: string;
  /** The agent contract's owner: the genesis account (`$OWNER`), or the `owner_id` a user's init arguments
   * name. */
  agentContractOwner: string;
  responderAccountId: string;
  publicKeys: { secp256k1: string; ed25519: string };
  stop(): Promise<void>;
}

/** The seed of the root keys when none is given: the dev accounts' default seed (`--seed`). */
export const DEFAULT_ROOT_KEY_SEED = 'shadebox';

export interface ChainSignaturesOptions {
  rpcUrl: string;
  /** The home directory (its keys are kept there), or null for an in-memory node. */
  home: string | null;
  /** What new root keys derive from (`--seed`, default {@link DEFAULT_ROOT_KEY_SEED}): an in-memory node's,
   * and a new home's; a home keeps the keys it has. */
  seed?: string;
  root: { accountId: string; secretKey: string };
  log: Logger;
  /** Deploy only (`shadebox node init --mpc`): no responder. */
  deployOnly?: boolean;
  /** The signer contract's account (default `signer.<genesis account>`, kept from the home if it has one). */
  mpcContractId?: string;
  /** The user's agent contract (`--agent-contract-wasm`) instead of the built-in one. */
  agentContract?: AgentContractSource;
  /** One of NEAR's signer builds to deploy instead of Shadebox's signer (`--signer-wasm`, `--signer-from`). */
  signerWasm?: Uint8Array;
  /** Where to read such a build (`--signer-wasm`, `--signer-from`); a remote's code is cached in the home. */
  signerSource?: SignerSource;
  /** New-block notifications of a node in this process (with the block's height and hash): the responder then
   * polls only when a block is made. */
  subscribeToBlocks?: (listener: (head?: { height: number; hash: string }) => void) => () => void;
  /** The node's JSON-RPC answered in this process (`RunningNode.fetch`), for the responder. */
  fetch?: typeof fetch;
}

export async function startChainSignatures(o: ChainSignaturesOptions): Promise<ChainSignatures> {
  const mpc = await import('@shadebox/mpc');
  const contracts = await import('@shadebox/contracts');
  const signerWasm = o.signerWasm ?? (o.signerSource && (await readSignerCode(o.signerSource, o.home)));
  const seed = { seed: o.seed ?? DEFAULT_ROOT_KEY_SEED };
  const rootKeys = o.home === null ? mpc.createRootKeys(seed) : mpc.loadOrCreateRootKeys(o.home, seed);
  const accounts = loadOrCreateAccounts(o.home, o.root.accountId, o.mpcContractId);
  const publicKeys = { secp256k1: rootKeys.secp256k1.publicKey, ed25519: rootKeys.ed25519.publicKey };
  await deployChainSignatures({
    rpcUrl: o.rpcUrl,
    root: o.root,
    accounts,
    publicKeys,
    signerWasm: signerWasm ?? contracts.readSignerWasm(),
    productionSigner: signerWasm !== undefined,
    agentWasm: contracts.readAgentWasm(),
    agentContract: o.agentContract,
  });
  o.log.info(
    { mpcContractId: accounts.signer.accountId, agentContractId: accounts.agent.accountId },
    'chain signatures deployed',
  );
  const responder = o.deployOnly
    ? undefined
    : await mpc.startResponder({
        rpcUrl: o.rpcUrl,
        signerContractId: accounts.signer.accountId,
        responderAccountId: accounts.responder.accountId,
        responderSecretKey: accounts.responder.secretKey,
        rootKeys,
        // A restarted stack reads on from the last block its responder handled.
        heightFile: o.home === null ? undefined : join(o.home, 'mpc_responder.json'),
        log: o.log,
        subscribeToBlocks: o.subscribeToBlocks,
        ...(o.fetch ? { fetch: o.fetch } : {}),
      });
  return {
    mpcContractId: accounts.signer.accountId,
    agentContractId: accounts.agent.accountId,
    agentContractOwner: agentContractOwner(o, accounts.signer.accountId, accounts.agent.accountId),
    responderAccountId: accounts.responder.accountId,
    publicKeys,
    stop: async () => {
      await responder?.stop();
    },
  };
}

/** The owner the agent contract was initialised with (see ChainSignatures.agentContractOwner). */
function agentContractOwner(
  o: ChainSignaturesOptions,
  mpcContractId: string,
  agentContractId: string,
): string {
  if (o.agentContract === undefined) return o.root.accountId;
  const args = resolveInitArgs(o.agentContract.initArgs, {
    OWNER: o.root.accountId,
    MPC_CONTRACT_ID: mpcContractId,
    AGENT_CONTRACT_ID: agentContractId,
  });
  return typeof args.owner_id === 'string' ? args.owner_id : o.root.accountId;
}

/**
 * Chain signatures on a node running in this process: its RPC (answered in process for the responder), home
 * and genesis account, and its new-block notifications for the responder (which then reads the chain only
 * when a block is made, and answers before the next block).
 */
export function startChainSignaturesOn(
  node: RunningNode,
  o: Pick<
    ChainSignaturesOptions,
    'log' | 'deployOnly' | 'mpcContractId' | 'agentContract' | 'signerWasm' | 'signerSource' | 'seed'
  >,
): Promise<ChainSignatures> {
  const [root] = node.accounts;
  return startChainSignatures({
    ...o,
    rpcUrl: node.rpcUrl,
    home: node.home,
    root: { accountId: root.accountId, secretKey: root.secretKey },
    fetch: node.fetch,
    subscribeToBlocks: (listener) => {
      node.chain.on('block', listener);
      return () => {
        node.chain.off('block', listener);
      };
    },
  });
}

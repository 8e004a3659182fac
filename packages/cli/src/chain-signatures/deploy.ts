/**
 * Puts the chain-signature contracts on a chain through its JSON-RPC: the signer contract (a top-level id
 * such as `v1.signer` is created with `sandbox_patch_state` — only a registrar may create short top-level
 * accounts — with no balance, then funded by a transfer, so total supply stays exact; a sub-account of the
 * genesis account is created by it), the MPC responder's
 * account, and the agent contract (owner: the genesis account; `deploy-agent-contract.ts`). Each step is
 * skipped when already done, so a restarted stack finds its contracts as it left them.
 */

import {
  KeyPool,
  NO_CODE_HASH,
  outcomeResult,
  RpcClient,
  viewAccount,
  viewFunction,
} from '@shadebox/near-client';
import { type Action, fullAccessKey, KeyPair, ONE_NEAR, TGAS } from '@shadebox/primitives';
import type { AccountKey, ChainSignatureAccounts } from './accounts.js';
import type { AgentContractSource } from './agent-contract.js';
import { deployAgentContract } from './deploy-agent-contract.js';

export interface DeployOptions {
  rpcUrl: string;
  /** The genesis account that pays for everything. */
  root: AccountKey;
  accounts: ChainSignatureAccounts;
  /** The responder's root public keys (NAJ strings). */
  publicKeys: { secp256k1: string; ed25519: string };
  signerWasm: Uint8Array;
  agentWasm: Uint8Array;
  /** The user's agent contract (`--agent-contract-wasm`), deployed instead of `agentWasm`. */
  agentContract?: AgentContractSource;
}

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** An account signing with its key through the JSON-RPC; a failed transaction throws. */
function actingAs(rpc: RpcClient, a: AccountKey) {
  const pool = new KeyPool(rpc, a.accountId, [KeyPair.fromString(a.secretKey)]);
  return {
    send: async (receiverId: string, actions: Action[]) =>
      outcomeResult(await pool.send(receiverId, actions)),
  };
}

const exists = async (rpc: RpcClient, accountId: string) => (await viewAccount(rpc, accountId)) !== null;

async function hasCode(rpc: RpcClient, accountId: string): Promise<boolean> {
  const view = await viewAccount(rpc, accountId);
  return view !== null && view.codeHash !== NO_CODE_HASH;
}

export async function deployChainSignatures(o: DeployOptions): Promise<void> {
  const rpc = new RpcClient([o.rpcUrl], 30_000);
  const root = actingAs(rpc, o.root);
  const { signer, agent, responder } = o.accounts;
  const publicKeyOf = (a: AccountKey) => KeyPair.fromString(a.secretKey).publicKey;

  if (!(await exists(rpc, responder.accountId))) {
    await root.send(responder.accountId, [
      { type: 'CreateAccount' },
      { type: 'Transfer', deposit: 10n * ONE_NEAR },
      { type: 'AddKey', publicKey: publicKeyOf(responder), accessKey: fullAccessKey() },
    ]);
  }

  if (signer.accountId.endsWith(`.${o.root.accountId}`)) {
    if (!(await exists(rpc, signer.accountId))) {
      await root.send(signer.accountId, [
        { type: 'CreateAccount' },
        { type: 'Transfer', deposit: 50n * ONE_NEAR },
        { type: 'AddKey', publicKey: publicKeyOf(signer), accessKey: fullAccessKey() },
      ]);
    }
  } else if (!(await exists(rpc, signer.accountId))) {
    await rpc.call('sandbox_patch_state', {
      records: [
        { Account: { account_id: signer.accountId, account: { amount: '0', locked: '0' } } },
        {
          AccessKey: {
            account_id: signer.accountId,
            public_key: KeyPair.fromString(signer.secretKey).publicKeyString,
            access_key: { nonce: 0, permission: 'FullAccess' },
          },
        },
      ],
    });
    await root.send(signer.accountId, [{ type: 'Transfer', deposit: 50n * ONE_NEAR }]);
  }
  if (!(await hasCode(rpc, signer.accountId))) {
    const self = actingAs(rpc, o.accounts.signer);
    await self.send(signer.accountId, [
      { type: 'DeployContract', code: o.signerWasm },
      {
        type: 'FunctionCall',
        methodName: 'init',
        args: json({
          owner_id: o.root.accountId,
          public_keys: o.publicKeys,
          responders: [responder.accountId],
        }),
        gas: 50n * TGAS,
        deposit: 0n,
      },
    ]);
  } else {
    // A signer made with other root keys cannot be answered by this responder.
    const key = (await viewFunction(rpc, signer.accountId, 'public_key', { domain_id: 0 })) as string;
    if (key !== o.publicKeys.secp256k1) {
      throw new Error(
        `${signer.accountId} holds root key ${key}, not this home's ${o.publicKeys.secp256k1} (mpc_keys.json)`,
      );
    }
  }

  await deployAgentContract(rpc, {
    root: o.root,
    agent,
    mpcContractId: signer.accountId,
    builtInWasm: o.agentWasm,
    custom: o.agentContract,
  });
}

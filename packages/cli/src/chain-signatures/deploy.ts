/**
 * Puts the chain-signature contracts on a chain through its JSON-RPC: the signer contract (a top-level id
 * such as `v1.signer` is created with `sandbox_patch_state` — only a registrar may create short top-level
 * accounts — with no balance, then funded by a transfer, so total supply stays exact; a sub-account of the
 * genesis account is created by it), the MPC responder's
 * account, and the agent contract (owner: the genesis account; `deploy-agent-contract.ts`). Each step is
 * skipped when already done, so a restarted stack finds its contracts as it left them.
 */

import {
  ChainUnavailableError,
  KeyPool,
  NO_CODE_HASH,
  type Outcome,
  outcomeResult,
  RpcClient,
  sendTransaction,
  viewAccount,
  viewFunction,
} from '@shadebox/near-client';
import { type Action, fullAccessKey, KeyPair, ONE_NEAR, TGAS } from '@shadebox/primitives';
import type { AccountKey, ChainSignatureAccounts } from './accounts.js';
import type { AgentContractSource } from './agent-contract.js';
import { deployAgentContract } from './deploy-agent-contract.js';
import { initRunningAttempts, SignerInitError } from './production-signer.js';

export interface DeployOptions {
  rpcUrl: string;
  /** The genesis account that pays for everything. */
  root: AccountKey;
  accounts: ChainSignatureAccounts;
  /** The responder's root public keys (NAJ strings). */
  publicKeys: { secp256k1: string; ed25519: string };
  signerWasm: Uint8Array;
  /** `signerWasm` is one of NEAR's signer builds (not Shadebox's): initialised running (`init_running`). */
  productionSigner?: boolean;
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
    /**
     * Sends and, when the node's own wait runs out first (deploying a 1.5 MB signer build on a loaded
     * machine can take longer), asks for the outcome again with `tx` until it comes.
     */
    sendPatiently: async (receiverId: string, actions: Action[]) => {
      const signed = await pool.sign(receiverId, actions);
      for (let attempt = 0; ; attempt++) {
        try {
          const outcome =
            attempt === 0
              ? await sendTransaction(rpc, signed.bytes, 'EXECUTED_OPTIMISTIC')
              : await rpc.call<Outcome>('tx', {
                  signed_tx_base64: signed.base64,
                  sender_account_id: a.accountId,
                  wait_until: 'EXECUTED_OPTIMISTIC',
                });
          return outcomeResult(outcome);
        } catch (err) {
          if (!(err instanceof ChainUnavailableError && err.timeout) || attempt >= 10) throw err;
        }
      }
    },
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
  if (!(await hasCode(rpc, signer.accountId)) && o.productionSigner) {
    await deployProductionSigner(rpc, o, root);
  } else if (!(await hasCode(rpc, signer.accountId))) {
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
    await checkRootKey(rpc, signer.accountId, o.publicKeys.secp256k1);
  }

  await deployAgentContract(rpc, {
    root: o.root,
    agent,
    mpcContractId: signer.accountId,
    builtInWasm: o.agentWasm,
    custom: o.agentContract,
  });
}

/** A signer made with other root keys cannot be answered by this responder. */
async function checkRootKey(rpc: RpcClient, signerId: string, secp256k1: string): Promise<void> {
  const key = (await viewFunction(rpc, signerId, 'public_key', { domain_id: 0 })) as string;
  if (key !== secp256k1) {
    throw new Error(`${signerId} holds root key ${key}, not this home's ${secp256k1} (mpc_keys.json)`);
  }
}

/** The second participant's account (the responder's is the first); it never acts, so its key is not kept. */
export function secondParticipantId(rootAccountId: string): string {
  return `mpc-participant-2.${rootAccountId}`;
}

/**
 * Deploys one of NEAR's signer builds and initialises it running with the responder's root keys
 * (production-signer.ts): the participant accounts first, then the code, then each `init_running` shape.
 */
async function deployProductionSigner(
  rpc: RpcClient,
  o: DeployOptions,
  root: ReturnType<typeof actingAs>,
): Promise<void> {
  const { signer, responder } = o.accounts;
  const second = secondParticipantId(o.root.accountId);
  const secondKey = KeyPair.fromRandom('ed25519');
  if (!(await exists(rpc, second))) {
    await root.send(second, [
      { type: 'CreateAccount' },
      { type: 'Transfer', deposit: ONE_NEAR },
      { type: 'AddKey', publicKey: secondKey.publicKey, accessKey: fullAccessKey() },
    ]);
  }
  const self = actingAs(rpc, signer);
  await self.sendPatiently(signer.accountId, [{ type: 'DeployContract', code: o.signerWasm }]);
  const participants = [
    { accountId: responder.accountId, publicKey: KeyPair.fromString(responder.secretKey).publicKeyString },
    { accountId: second, publicKey: secondKey.publicKeyString },
  ];
  const attempts: string[] = [];
  for (const { label, args } of initRunningAttempts(o.publicKeys, participants)) {
    try {
      await self.sendPatiently(signer.accountId, [
        { type: 'FunctionCall', methodName: 'init_running', args: json(args), gas: 300n * TGAS, deposit: 0n },
      ]);
      await checkRootKey(rpc, signer.accountId, o.publicKeys.secp256k1);
      await attestResponder(rpc, o, participants[0].publicKey);
      return;
    } catch (err) {
      const message = (err as Error).message;
      attempts.push(`${label}: ${message.slice(0, 300)}`);
      // The build needs what this node does not have: no other shape will help.
      if (/LinkError|unknown import|not provided|PrepareError|CompilationError/i.test(message)) {
        throw new SignerInitError(
          `${signer.accountId}: this node cannot run the signer build (${message.slice(0, 300)})`,
          signer.accountId,
          attempts,
        );
      }
    }
  }
  throw new SignerInitError(
    `${signer.accountId}: the signer build took none of the known init_running shapes`,
    signer.accountId,
    attempts,
  );
}

/**
 * 3.10 to 3.12 seed the initial participants' mock attestations with an all-zero account key, so their
 * `respond` refuses every caller (AttestationKeyMismatch); the responder then submits its own mock attestation
 * (`submit_participant_info`), which the contract stores with the responder's access key. Builds without
 * `get_tee_accounts`, or whose attestation already names the key, are left as they are.
 */
async function attestResponder(rpc: RpcClient, o: DeployOptions, tlsPublicKey: string): Promise<void> {
  const { signer, responder } = o.accounts;
  let accounts: Array<{ account_id: string; account_public_key?: string }>;
  try {
    accounts = (await viewFunction(rpc, signer.accountId, 'get_tee_accounts', {})) as typeof accounts;
  } catch {
    return;
  }
  const mine = accounts.find((a) => a.account_id === responder.accountId);
  if (!mine || mine.account_public_key === undefined || mine.account_public_key === tlsPublicKey) return;
  await actingAs(rpc, responder).sendPatiently(signer.accountId, [
    {
      type: 'FunctionCall',
      methodName: 'submit_participant_info',
      args: json({ proposed_participant_attestation: { Mock: 'Valid' }, tls_public_key: tlsPublicKey }),
      gas: 300n * TGAS,
      deposit: ONE_NEAR,
    },
  ]);
}

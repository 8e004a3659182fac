/**
 * The agent contract's account and code: created by the genesis account when absent, then deployed and
 * initialised by the account itself (near-sdk's `#[private]` init methods require that) — the built-in
 * contract, or the user's (`--agent-contract-wasm`) with its init arguments, placeholders replaced. A
 * restarted stack finds it deployed and leaves it; a home whose agent account already holds other code than
 * the user's file is refused rather than silently keeping the old contract.
 */

import { ShadeboxError } from '@shadebox/errors';
import { KeyPool, NO_CODE_HASH, outcomeResult, type RpcClient, viewAccount } from '@shadebox/near-client';
import { base58Encode, fullAccessKey, KeyPair, ONE_NEAR, sha256, TGAS } from '@shadebox/primitives';
import type { AccountKey } from './accounts.js';
import { type AgentContractSource, resolveInitArgs } from './agent-contract.js';

/** The agent account of this home already holds other code than `--agent-contract-wasm`. */
export class AgentContractMismatchError extends ShadeboxError<{
  accountId: string;
  onChain: string;
  file: string;
}> {
  constructor(accountId: string, onChain: string, file: string, fileHash: string) {
    super(
      `${accountId} already holds another contract (code hash ${onChain}), not ${file} (${fileHash}): start a new chain (--reset or another --home) to deploy it`,
      { details: { accountId, onChain, file }, docsPath: 'docs/chain-signatures.md#your-own-agent-contract' },
    );
  }
}

export interface AgentContractDeployment {
  /** The genesis account: creates and funds the agent account, and owns the contract (`$OWNER`). */
  root: AccountKey;
  agent: AccountKey;
  mpcContractId: string;
  /** The built-in contract, deployed when `custom` is absent. */
  builtInWasm: Uint8Array;
  custom?: AgentContractSource;
}

/** Init gas: near-sdk contracts with collections need more than the built-in contract. */
const INIT_GAS = 100n * TGAS;

export async function deployAgentContract(rpc: RpcClient, d: AgentContractDeployment): Promise<void> {
  const { root, agent, custom } = d;
  const sendAs = async (a: AccountKey, receiverId: string, actions: Parameters<KeyPool['send']>[1]) =>
    outcomeResult(
      await new KeyPool(rpc, a.accountId, [KeyPair.fromString(a.secretKey)]).send(receiverId, actions),
    );

  let account = await viewAccount(rpc, agent.accountId);
  if (account === null) {
    await sendAs(root, agent.accountId, [
      { type: 'CreateAccount' },
      { type: 'Transfer', deposit: 20n * ONE_NEAR },
      {
        type: 'AddKey',
        publicKey: KeyPair.fromString(agent.secretKey).publicKey,
        accessKey: fullAccessKey(),
      },
    ]);
    account = await viewAccount(rpc, agent.accountId);
  }
  const wasm = custom?.wasm ?? d.builtInWasm;
  const codeHash = base58Encode(sha256(wasm));
  const deployed = account !== null && account.codeHash !== NO_CODE_HASH;
  if (deployed) {
    if (custom && account!.codeHash !== codeHash) {
      throw new AgentContractMismatchError(agent.accountId, account!.codeHash, custom.file, codeHash);
    }
    return;
  }
  const values = {
    OWNER: root.accountId,
    MPC_CONTRACT_ID: d.mpcContractId,
    AGENT_CONTRACT_ID: agent.accountId,
  };
  const args = custom
    ? resolveInitArgs(custom.initArgs, values)
    : { owner_id: root.accountId, mpc_contract_id: d.mpcContractId, requires_tee: false };
  await sendAs(agent, agent.accountId, [
    { type: 'DeployContract', code: wasm },
    {
      type: 'FunctionCall',
      methodName: custom?.initMethod ?? 'init',
      args: new TextEncoder().encode(JSON.stringify(args)),
      gas: INIT_GAS,
      deposit: 0n,
    },
  ]);
}

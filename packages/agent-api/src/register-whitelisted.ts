/**
 * Registration in a whitelisting agent contract (the Shade Agent Framework 2.0 template): the owner
 * whitelists the agent account, then the agent registers with an attestation. Locally the funding account
 * acts as the owner (in `shadebox up` it is); when it is not the owner, the step fails with a message naming
 * the call the owner must make, and the retried step goes on once the agent is whitelisted.
 */
import {
  ContractError,
  type KeyPool,
  outcomeResult,
  type RpcClient,
  viewFunction,
} from '@shadebox/near-client';
import { TGAS } from '@shadebox/primitives';
import { BootError } from './boot-error.js';
import type { AgentApiLogger } from './logger.js';
import type { TeeProvider } from './tee/index.js';

/** What the template accepts outside a TEE (its `requires_tee: false` mode stores no codehash from it). */
export const LOCAL_ATTESTATION = {
  quote_hex: 'not-in-a-tee',
  collateral: 'not-in-a-tee',
  checksum: 'not-in-a-tee',
  tcb_info: 'not-in-a-tee',
} as const;

const GAS = 100n * TGAS;

/** `get_agent`'s answer in a whitelisting contract. */
export interface WhitelistedAgent {
  account_id: string;
  verified: boolean;
  whitelisted: boolean;
  codehash: string | null;
}

export interface WhitelistedRegistration {
  rpc: RpcClient;
  agentContractId: string;
  accountId: string;
  /** The agent account's keys. */
  agent: KeyPool;
  /** The funding account's keys, used as the contract's owner to whitelist. */
  owner: KeyPool;
  ownerId: string;
  tee: TeeProvider;
  log: AgentApiLogger;
}

const call = (methodName: string, args: unknown) => ({
  type: 'FunctionCall' as const,
  methodName,
  args: Buffer.from(JSON.stringify(args)),
  gas: GAS,
  deposit: 0n,
});

/** Whitelists (when not yet) and registers the agent; resolves once `get_agent` shows it verified. */
export async function registerWhitelisted(r: WhitelistedRegistration): Promise<void> {
  const { rpc, agentContractId, accountId, log } = r;
  const view = async () =>
    (await viewFunction(rpc, agentContractId, 'get_agent', {
      account_id: accountId,
    })) as WhitelistedAgent | null;
  const before = await view();
  if (before?.verified === true) return;
  if (before === null) {
    // whitelist_agent overwrites an entry (a registered agent would be unregistered): only for a new agent.
    try {
      outcomeResult(
        await r.owner.send(agentContractId, [call('whitelist_agent', { account_id: accountId })]),
      );
    } catch (e) {
      if (!(e instanceof ContractError)) throw e;
      throw new BootError(
        `${r.ownerId} cannot whitelist the agent in ${agentContractId} (${e.message}): its owner must call whitelist_agent({"account_id":"${accountId}"})`,
        { stage: 'register', accountId },
      );
    }
    log.info({ accountId, agentContractId }, 'boot: agent whitelisted');
  }
  const attestation =
    r.tee.mode === 'local' ? LOCAL_ATTESTATION : await r.tee.registrationArgs(accountId, undefined);
  const result = outcomeResult(
    await r.agent.send(agentContractId, [call('register_agent', { attestation })]),
  );
  log.info({ accountId, result }, 'boot: register_agent sent');
  if ((await view())?.verified !== true) {
    throw new BootError('get_agent does not show the registration', { stage: 'register', accountId });
  }
}

/**
 * Registration in a whitelisting agent contract (the Shade Agent Framework 2.0 template: its December 2025
 * pre-release's `whitelist_agent`, and the released `whitelist_agent_for_local` of local mode, which Shadebox's
 * built-in 2.0 contract has too): the owner whitelists the agent account, then the agent registers with an
 * attestation. Locally the funding account
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

/** What the pre-release template accepts outside a TEE (its `requires_tee: false` mode stores no codehash from it). */
export const LOCAL_ATTESTATION = {
  quote_hex: 'not-in-a-tee',
  collateral: 'not-in-a-tee',
  checksum: 'not-in-a-tee',
  tcb_info: 'not-in-a-tee',
} as const;

const Z48 = '0'.repeat(96);
const Z32 = '0'.repeat(64);

/**
 * The attestation ShadeClient (@neardefi/shade-agent-js 2.x) sends outside a TEE, in the shape of the released
 * template's `DstackAttestation`: an empty quote and collateral, zero RTMRs. A contract in local mode checks the
 * whitelist and its approvals, not this.
 */
export const LOCAL_DSTACK_ATTESTATION = {
  quote: [],
  collateral: {
    pck_crl_issuer_chain: '',
    root_ca_crl: '',
    pck_crl: '',
    tcb_info_issuer_chain: '',
    tcb_info: '',
    tcb_info_signature: '',
    qe_identity_issuer_chain: '',
    qe_identity: '',
    qe_identity_signature: '',
  },
  tcb_info: {
    mrtd: Z48,
    rtmr0: Z48,
    rtmr1: Z48,
    rtmr2: Z48,
    rtmr3: Z48,
    os_image_hash: '',
    compose_hash: Z32,
    device_id: Z32,
    app_compose: '',
    event_log: [],
  },
} as const;

/** What ShadeClient's register() attaches by default: the template's storage deposit (0.00486 NEAR) and some. */
export const REGISTER_DEPOSIT = 5_000_000_000_000_000_000_000n;

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

const call = (methodName: string, args: unknown, deposit = 0n) => ({
  type: 'FunctionCall' as const,
  methodName,
  args: Buffer.from(JSON.stringify(args)),
  gas: GAS,
  deposit,
});

/** `get_agent`'s answer in a released 2.0 contract (the fields the boot reads). */
interface LocalModeAgent {
  account_id: string;
  validity: 'Valid' | { Invalid: string[] };
}

/**
 * The released 2.0 flow in local mode (`whitelist_agent_for_local`): the owner whitelists the agent when it is
 * not yet (whitelisting twice is harmless there), then the agent registers with ShadeClient's local attestation
 * and the storage deposit; resolves once `get_agent` shows it valid. The contract's owner must have approved the
 * mock measurements and the default PPID (`shadebox up --agent-contract v2` does; the contract's refusal says so).
 * A contract with `requires_tee: true` takes the TEE's attestation instead (`registerWithTeeAttestation`).
 */
export async function registerWhitelistedForLocal(r: WhitelistedRegistration): Promise<void> {
  const { rpc, agentContractId, accountId, log } = r;
  const view = async () =>
    (await viewFunction(rpc, agentContractId, 'get_agent', {
      account_id: accountId,
    })) as LocalModeAgent | null;
  if ((await view())?.validity === 'Valid') return;
  const info = (await viewFunction(rpc, agentContractId, 'get_contract_info', {})) as {
    requires_tee?: boolean;
  } | null;
  if (info?.requires_tee === true) {
    await registerWithTeeAttestation(r);
    return;
  }
  const whitelisted = (await viewFunction(rpc, agentContractId, 'get_whitelisted_agents_for_local', {})) as
    | string[]
    | null;
  if (!whitelisted?.includes(accountId)) {
    try {
      outcomeResult(
        await r.owner.send(agentContractId, [call('whitelist_agent_for_local', { account_id: accountId })]),
      );
    } catch (e) {
      if (!(e instanceof ContractError)) throw e;
      throw new BootError(
        `${r.ownerId} cannot whitelist the agent in ${agentContractId} (${e.message}): its owner must call whitelist_agent_for_local({"account_id":"${accountId}"}) (shadebox whitelist ${accountId})`,
        { stage: 'register', accountId },
      );
    }
    log.info({ accountId, agentContractId }, 'boot: agent whitelisted for local mode');
  }
  // In a TEE ShadeClient sends its real attestation, which a contract in local mode does not look at.
  const attestation = r.tee.attestation2 ? await r.tee.attestation2(accountId) : LOCAL_DSTACK_ATTESTATION;
  const result = outcomeResult(
    await r.agent.send(agentContractId, [call('register_agent', { attestation }, REGISTER_DEPOSIT)]),
  );
  log.info({ accountId, result }, 'boot: register_agent sent');
  const after = await view();
  if (after?.validity !== 'Valid') {
    throw new BootError(`get_agent does not show a valid registration: ${JSON.stringify(after)}`, {
      stage: 'register',
      accountId,
    });
  }
}

/**
 * The released 2.0 flow with `requires_tee: true`: no whitelist; the agent registers with its TEE's attestation
 * (quote, collateral, tcb_info) and the storage deposit; resolves once `get_agent` shows it valid. The contract's
 * owner must have approved the TEE's measurements and PPID (the contract's refusal says which check failed).
 */
async function registerWithTeeAttestation(r: WhitelistedRegistration): Promise<void> {
  const { rpc, agentContractId, accountId, log } = r;
  if (!r.tee.attestation2) {
    throw new BootError(
      `${agentContractId} requires a TEE (requires_tee: true): run the agent API in dstack mode (TEE_MODE=dstack), or use a contract with requires_tee false`,
      { stage: 'register', accountId },
    );
  }
  const attestation = await r.tee.attestation2(accountId);
  try {
    const result = outcomeResult(
      await r.agent.send(agentContractId, [call('register_agent', { attestation }, REGISTER_DEPOSIT)]),
    );
    log.info({ accountId, result }, 'boot: register_agent sent with the TEE attestation');
  } catch (e) {
    if (!(e instanceof ContractError)) throw e;
    throw new BootError(
      `${agentContractId} refused the TEE attestation (${e.message}): its owner must approve this TEE's measurements (approve_measurements) and PPID (approve_ppids)`,
      { stage: 'register', accountId },
    );
  }
  const after = (await viewFunction(rpc, agentContractId, 'get_agent', {
    account_id: accountId,
  })) as LocalModeAgent | null;
  if (after?.validity !== 'Valid') {
    throw new BootError(`get_agent does not show a valid registration: ${JSON.stringify(after)}`, {
      stage: 'register',
      accountId,
    });
  }
}

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

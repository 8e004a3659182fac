/**
 * The boot sequence: derive the agent key and account (new every boot, or kept in AGENT_KEY_FILE) → fund it and add the key pool → register it in the
 * agent contract, in the flow that contract uses (told from its methods, `registration-flow.ts`: a codehash
 * here, the owner's whitelisting then an attestation in `register-whitelisted.ts`). Each step is retried
 * with exponential backoff until it succeeds or the service stops; failures show in `state.lastError`
 * (redacted). The funding key is used by the boot only: read (from the configuration or its file) when a step
 * needs it, and dropped with the boot.
 */
import { randomBytes } from 'node:crypto';
import {
  availableBalance,
  ContractError,
  KeyPool,
  outcomeResult,
  type RpcClient,
  viewAccessKeyList,
  viewAccount,
  viewFunction,
} from '@shadebox/near-client';
import { type Action, fullAccessKey, hexEncode, KEY_TYPE_ED25519, KeyPair, TGAS } from '@shadebox/primitives';
import { loadOrCreateAgentKeyFile, poolKeysOf } from './agent-key-file.js';
import { BootError, StoppedError } from './boot-error.js';
import type { AgentApiConfig } from './config.js';
import { readFundingKeyFile } from './funding-key-file.js';
import { type AgentApiLogger, errorMessage } from './logger.js';
import { registerWhitelisted, registerWhitelistedForLocal } from './register-whitelisted.js';
import { detectRegistrationFlow, type RegistrationFlow } from './registration-flow.js';
import type { TeeProvider } from './tee/index.js';

export type BootStage = 'derive' | 'fund' | 'register' | 'ready';

export interface AgentApiStatus {
  stage: BootStage;
  ready: boolean;
  accountId?: string;
  lastError?: string;
}

export const REGISTER_GAS = 100n * TGAS;

export interface BootContext {
  config: AgentApiConfig;
  rpc: RpcClient;
  tee: TeeProvider;
  /** Already redacting. */
  log: AgentApiLogger;
  /** Updated as boot goes (stage, account id, last error). */
  state: AgentApiStatus;
  addSecret(secret: string): void;
  /** Stops redacting `secret` (the funding key, once the boot no longer holds it). */
  removeSecret(secret: string): void;
  redact(text: string): string;
  /** Aborted when the service stops: the sequence ends with `StoppedError`. */
  stopSignal: AbortSignal;
}

export interface BootedAgent {
  accountId: string;
  /** The agent account's keys: the derived key and the pool added at boot. */
  pool: KeyPool;
}

/** Runs derive → fund → register; resolves once `get_agent` shows the registration. */
export async function bootAgent(ctx: BootContext): Promise<BootedAgent> {
  const { config, rpc, tee, log, state } = ctx;
  const step = <T>(stage: BootStage, run: () => Promise<T>) => retryStep(ctx, stage, run);

  const keyFile = config.agentKeyFile;
  const agentKey = await step('derive', async () => {
    const seed = await tee.agentSeed(randomBytes(32));
    if (keyFile === undefined) return KeyPair.fromSecretBytes(KEY_TYPE_ED25519, seed);
    // AGENT_KEY_FILE: the key kept there (a new file gets the fresh one).
    const { key, created } = loadOrCreateAgentKeyFile(keyFile, seed);
    log.info({ keyFile, created }, created ? 'boot: agent key file created' : 'boot: agent key file read');
    return key;
  });
  ctx.addSecret(agentKey.toString());
  const accountId = hexEncode(agentKey.publicKey.data);
  state.accountId = accountId;
  log.info({ accountId, mode: tee.mode }, 'boot: agent account derived');
  const pool = new KeyPool(rpc, accountId, [agentKey]);
  // A kept key keeps its pool too: the keys derive from it, so a restart finds them on the account.
  const extraKeys =
    keyFile === undefined
      ? Array.from({ length: config.keyPoolSize }, () => KeyPair.fromRandom('ed25519'))
      : poolKeysOf(agentKey, config.keyPoolSize);
  for (const k of extraKeys) ctx.addSecret(k.toString());
  // The funding key (from the configuration, or read from CHAIN_ACCOUNT_SECRET_KEY_FILE) only when a step
  // needs it; the pool goes with the boot's frame and its secret leaves the redactor at the end.
  let funder: KeyPool | undefined;
  let fundingSecret: string | undefined;
  const fundingPool = (): KeyPool => {
    if (funder === undefined) {
      const key = config.fundingKey ?? readFundingKeyFile(config.fundingKeyFile ?? '');
      fundingSecret = key.toString();
      ctx.addSecret(fundingSecret);
      funder = new KeyPool(rpc, config.fundingAccountId, [key]);
    }
    return funder;
  };

  await step('fund', async () => {
    const account = await viewAccount(rpc, accountId);
    const have = account?.amount ?? 0n;
    // A kept account (AGENT_KEY_FILE) that already holds at least half the funding is left as it is: the gas
    // its first boot spent (adding keys, registering) is not topped up at every restart.
    const keep = keyFile !== undefined && account !== null && have >= config.fundingAmount / 2n;
    if (have < config.fundingAmount && !keep) {
      const funding = await viewAccount(rpc, config.fundingAccountId);
      if (!funding) {
        throw new BootError(
          `the funding account ${config.fundingAccountId} does not exist: create it, or set CHAIN_ACCOUNT_ID to an existing account (retrying)`,
          {
            stage: 'fund',
            accountId: config.fundingAccountId,
          },
        );
      }
      const need = config.fundingAmount - have;
      if (availableBalance(funding) < need) {
        throw new BootError(
          `the funding account ${config.fundingAccountId} cannot spend ${need} yoctoNEAR (available ${availableBalance(funding)}): top it up, or lower AGENT_FUNDING_AMOUNT (retrying)`,
          { stage: 'fund', accountId: config.fundingAccountId },
        );
      }
      outcomeResult(await fundingPool().send(accountId, [{ type: 'Transfer', deposit: need }]));
      log.info({ accountId, amount: need.toString() }, 'boot: agent account funded');
    }
    if (extraKeys.length > 0) {
      const present = new Set((await viewAccessKeyList(rpc, accountId)).map((k) => k.publicKey));
      const missing = extraKeys.filter((k) => !present.has(k.publicKeyString));
      if (missing.length > 0) {
        const actions: Action[] = missing.map((k) => ({
          type: 'AddKey',
          publicKey: k.publicKey,
          accessKey: fullAccessKey(),
        }));
        outcomeResult(await pool.send(accountId, actions));
        log.info({ accountId, keys: missing.length }, 'boot: key pool added');
      }
    }
  });
  pool.addKeys(extraKeys);

  let flow: RegistrationFlow | undefined;
  await step('register', async () => {
    if (flow === undefined) {
      flow = await detectRegistrationFlow(rpc, config.agentContractId);
      log.info({ agentContractId: config.agentContractId, flow }, 'boot: registration flow');
    }
    if (flow === 'whitelist' || flow === 'whitelist-local') {
      await (flow === 'whitelist' ? registerWhitelisted : registerWhitelistedForLocal)({
        rpc,
        agentContractId: config.agentContractId,
        accountId,
        agent: pool,
        owner: fundingPool(),
        ownerId: config.fundingAccountId,
        tee,
        log,
      });
      return;
    }
    const args = await tee.registrationArgs(accountId, config.codehash);
    const current = await viewFunction(rpc, config.agentContractId, 'get_agent', {
      account_id: accountId,
    }).catch((e) => {
      if (e instanceof ContractError && /no worker found/.test(e.message)) return null;
      throw e;
    });
    if (current !== null && tee.isRegistered(current, args)) return;
    const result = outcomeResult(
      await pool.send(config.agentContractId, [
        {
          type: 'FunctionCall',
          methodName: 'register_agent',
          args: Buffer.from(JSON.stringify(args)),
          gas: REGISTER_GAS,
          deposit: 0n,
        },
      ]),
    );
    log.info({ accountId, result }, 'boot: register_agent sent');
    const record = await viewFunction(rpc, config.agentContractId, 'get_agent', { account_id: accountId });
    if (!tee.isRegistered(record, args)) {
      throw new BootError(
        'get_agent does not show the registration: is the codehash approved in the agent contract (approve_codehash)? (retrying)',
        { stage: 'register', accountId },
      );
    }
  });
  if (fundingSecret !== undefined) ctx.removeSecret(fundingSecret);
  return { accountId, pool };
}

/** Runs one step until it succeeds, backing off from `retryInitialMs` doubling to `retryMaxMs`. */
async function retryStep<T>(ctx: BootContext, stage: BootStage, run: () => Promise<T>): Promise<T> {
  const { config, log, state, stopSignal } = ctx;
  state.stage = stage;
  log.info({ stage }, `boot: ${stage}`);
  let delay = config.retryInitialMs;
  for (let attempt = 1; ; attempt++) {
    if (stopSignal.aborted) throw new StoppedError();
    try {
      const value = await run();
      state.lastError = undefined;
      return value;
    } catch (e) {
      if (stopSignal.aborted) throw new StoppedError();
      state.lastError = ctx.redact(errorMessage(e));
      log.warn(
        { stage, attempt, retryInMs: delay, error: state.lastError },
        `boot: ${stage} failed, retrying`,
      );
      await sleep(delay, stopSignal);
      delay = Math.min(delay * 2, config.retryMaxMs);
    }
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const onAbort = () => {
      clearTimeout(t);
      resolve();
    };
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

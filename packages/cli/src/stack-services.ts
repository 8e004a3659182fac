/**
 * The services `shadebox up` runs on its node: chain signatures (contracts and MPC responder), the local
 * codehash approved in the agent contract by its owner (contracts with the codehash flow), and the agent API
 * funded by and registered through the genesis account, with the agent variables of the environment
 * (`UP_AGENT_VARIABLES`), and the local EVM chain (anvil, ./evm/) where the agent's derived EVM addresses
 * are funded. Stopped in reverse order. Its ready line and summary also give the agent's derived EVM, Bitcoin and
 * Solana addresses (./chain-signatures/agent-addresses.ts).
 */
import { createHash } from 'node:crypto';
import { KeyPool, outcomeResult, RpcClient, viewFunction } from '@shadebox/near-client';
import type { Logger, RunningNode } from '@shadebox/node';
import { KeyPair, TGAS } from '@shadebox/primitives';
import type { AgentContractSource } from './chain-signatures/agent-contract.js';
import type { SignerSource } from './chain-signatures/signer-source.js';
import type { RunningStackDstack, TeePlan } from './dstack/stack-tee.js';
import type { EvmPlan } from './evm/evm-flags.js';
import type { LocalEvmInfo, RunningLocalEvm } from './evm/local-evm.js';
import type { RunningService } from './run-node.js';

/** The codehash a local agent registers with unless AGENT_CODEHASH says otherwise. */
export const LOCAL_AGENT_CODEHASH = createHash('sha256').update('shadebox local agent').digest('hex');

/**
 * The agent API's variables (docs/agent-api.md) `shadebox up` takes from its environment; the stack sets the
 * rest itself (the funding account, the agent contract, the RPC URL, local TEE mode).
 */
export const UP_AGENT_VARIABLES = [
  'AGENT_API_PORT',
  'SHADE_AGENT_PORT',
  'AGENT_CODEHASH',
  'API_CODEHASH',
  'AGENT_API_HOST',
  'AGENT_KEY_POOL_SIZE',
  'AGENT_FUNDING_AMOUNT',
  'AGENT_API_CORS_ORIGIN',
  'AGENT_API_ALLOW_CONTRACTS',
  'AGENT_API_RETRY_MAX_MS',
  'AGENT_KEY_FILE',
  'NEAR_RPC_TIMEOUT_MS',
] as const;

export interface StackOptions {
  agentPort: number;
  /** `--host`: the agent API listens there too (wins over AGENT_API_HOST). */
  host?: string;
  /** The environment `up` runs in: the variables of `UP_AGENT_VARIABLES` are passed to the agent API. */
  env?: Record<string, string | undefined>;
  /** The user's agent contract (`--agent-contract-wasm`) instead of the built-in one. */
  agentContract?: AgentContractSource;
  /** `--mpc-contract-id`: the signer contract's account (default signer.test.near). */
  mpcContractId?: string;
  /** NEAR's signer build to run instead of Shadebox's (`--signer-wasm`, `--signer-from`). */
  signerSource?: SignerSource;
  /** `--seed`: what the MPC root keys of `--memory` or a new home derive from. */
  seed?: string;
  /** `--agent-key-file` (absolute; wins over AGENT_KEY_FILE). */
  agentKeyFile?: string;
  /** `--tee dstack`: the agent API in dstack mode against the local dstack (./dstack/stack-tee.ts). */
  tee?: TeePlan;
  /** The local EVM chain (`--evm`, `--no-evm`, ./evm/evm-flags.ts); not started when absent. */
  evm?: EvmPlan;
  /** `--whitelist-all`: every implicit account that asks is whitelisted in a 2.0 agent contract
   * (./chain-signatures/whitelist-all.ts). */
  whitelistAll?: boolean;
  /** `--agent-image REF`: the agent API runs from this image (./agent-image/), its digest the codehash. */
  agentImage?: string;
}

/** The stack's services; `evm` is the running local EVM chain (null when it is not started), also the ready
 * line's `evm`. */
export interface StackServices extends RunningService {
  evm: LocalEvmInfo | null;
}

/**
 * The agent API's configuration in the stack: the user's agent variables, then what the stack fixes. Throws
 * the agent API's `ConfigError` for an invalid variable. `stack` may hold placeholders (checking the
 * variables before the node starts).
 */
export function stackAgentConfig(
  loadAgentApiConfig: typeof import('@shadebox/agent-api').loadAgentApiConfig,
  env: Record<string, string | undefined>,
  stack: StackAgentSettings,
) {
  return loadAgentApiConfig(stackAgentEnv(env, stack));
}

/** What the stack fixes in its agent API's configuration. */
export interface StackAgentSettings {
  accountId: string;
  secretKey: string;
  agentContractId: string;
  rpcUrl: string;
  /** `--agent-port` (wins over AGENT_API_PORT). */
  agentPort?: number;
  /** `--host` (wins over AGENT_API_HOST). */
  host?: string;
  /** `--agent-key-file` (wins over AGENT_KEY_FILE). */
  agentKeyFile?: string;
  /** `--tee dstack`: the local dstack's socket (TEE_MODE=dstack, DSTACK_ENDPOINT). */
  dstackSocket?: string;
}

/** The agent API's environment in the stack (stackAgentConfig reads it; `--agent-image` passes it on). */
export function stackAgentEnv(
  env: Record<string, string | undefined>,
  stack: StackAgentSettings,
): Record<string, string | undefined> {
  const own: Record<string, string | undefined> = {};
  for (const name of UP_AGENT_VARIABLES) own[name] = env[name];
  return {
    ...own,
    AGENT_CODEHASH: env.AGENT_CODEHASH || env.API_CODEHASH || LOCAL_AGENT_CODEHASH,
    API_CODEHASH: undefined,
    AGENT_API_HOST: stack.host ?? (env.AGENT_API_HOST || '127.0.0.1'),
    CHAIN_ACCOUNT_ID: stack.accountId,
    CHAIN_ACCOUNT_SECRET_KEY: stack.secretKey,
    AGENT_CONTRACT_ID: stack.agentContractId,
    NEAR_RPC_URL: stack.rpcUrl,
    ...(stack.agentPort === undefined ? {} : { AGENT_API_PORT: String(stack.agentPort) }),
    ...(stack.agentKeyFile === undefined ? {} : { AGENT_KEY_FILE: stack.agentKeyFile }),
    TEE_MODE: stack.dstackSocket === undefined ? 'local' : 'dstack',
    ...(stack.dstackSocket === undefined ? {} : { DSTACK_ENDPOINT: stack.dstackSocket }),
  };
}

export async function startStackServices(
  node: RunningNode,
  log: Logger,
  o: StackOptions,
): Promise<StackServices> {
  const { startChainSignaturesOn } = await import('./chain-signatures/service.js');
  const { loadAgentApiConfig, startAgentApi } = await import('@shadebox/agent-api');
  const [root] = node.accounts;
  const { agentAddresses, agentAddressRows } = await import('./chain-signatures/agent-addresses.js');
  const { evmSummaryRows, fundAgent, startLocalEvm } = await import('./evm/local-evm.js');
  const evmPlan = o.evm ?? { start: false };
  // anvil starts while the contracts deploy; its addresses are funded once the signer's root keys are known.
  const anvilStarting = evmPlan.start ? startLocalEvm(evmPlan, { host: o.host, log, env: o.env }) : undefined;
  anvilStarting?.catch(() => undefined);
  const stopAnvil = () =>
    anvilStarting?.then(
      (anvil) => anvil.stop(),
      () => undefined,
    );
  let cs: Awaited<ReturnType<typeof startChainSignaturesOn>>;
  try {
    cs = await startChainSignaturesOn(node, {
      log,
      agentContract: o.agentContract,
      mpcContractId: o.mpcContractId,
      signerSource: o.signerSource,
      seed: o.seed,
    });
  } catch (error) {
    await stopAnvil();
    throw error;
  }
  const addresses = agentAddresses(cs.publicKeys, cs.agentContractId);
  let api: Pick<Awaited<ReturnType<typeof startAgentApi>>, 'url' | 'onReady' | 'stop'> | undefined;
  let image: { ref: string; digest: string; engine: string } | undefined;
  let evm: RunningLocalEvm | null = null;
  let stopWhitelistAll: (() => Promise<void>) | undefined;
  let dstack: RunningStackDstack | undefined;
  try {
    if (anvilStarting !== undefined && evmPlan.start) {
      evm = await fundAgent(
        await anvilStarting,
        cs.publicKeys.secp256k1,
        cs.agentContractId,
        evmPlan.fundPaths,
      );
    }
    const settings: StackAgentSettings = {
      accountId: root.accountId,
      secretKey: root.secretKey,
      agentContractId: cs.agentContractId,
      rpcUrl: node.rpcUrl,
      agentPort: o.agentPort,
      host: o.host,
      agentKeyFile: o.agentKeyFile,
    };
    let agentEnv = o.env ?? {};
    if (o.agentImage !== undefined) {
      // The image's digest is its codehash: the stack registers exactly what production will.
      const { containerEngine } = await import('./agent-image/container-engine.js');
      const { imageDigest } = await import('./agent-image/image-digest.js');
      const engine = containerEngine(o.env ?? process.env);
      const digest = await imageDigest(engine, o.agentImage, o.env ?? process.env);
      image = { ref: o.agentImage, digest, engine };
      agentEnv = { ...agentEnv, AGENT_CODEHASH: digest.slice('sha256:'.length), API_CODEHASH: undefined };
    }
    if (o.tee?.mode === 'dstack') {
      const { startStackDstack } = await import('./dstack/stack-tee.js');
      dstack = await startStackDstack(o.tee, stackAgentEnv(agentEnv, settings).AGENT_CODEHASH!, {
        needsImages: (o.agentContract?.flow ?? 'codehash') === 'codehash',
      });
      settings.dstackSocket = dstack.info.socket;
    }
    const config = stackAgentConfig(loadAgentApiConfig, agentEnv, settings);
    // A whitelisting contract (the 2.0 template in local mode) needs no codehash: the agent API whitelists.
    // A released 2.0 contract needs the mock measurements and the default PPID approved, as `shade deploy` does.
    const flow = o.agentContract?.flow ?? 'codehash';
    if (flow === 'codehash') {
      // In dstack mode the contract checks both images of the measured compose file.
      const codehashes = dstack ? [dstack.info.apiImage!, dstack.info.appImage!] : [config.codehash!];
      for (const c of codehashes) await approveCodehash(node.rpcUrl, root, cs.agentContractId, c);
    } else if (flow === 'whitelist-local' && dstack) {
      // requires_tee: the owner approves the simulated TD's measurements and PPID (./chain-signatures/measurement-approvals.ts).
      const { approveTd } = await import('./chain-signatures/measurement-approvals.js');
      await approveTd(node.rpcUrl, root, cs.agentContractId, dstack.info, log);
    } else if (flow === 'whitelist-local') {
      const { approveLocalMode } = await import('./chain-signatures/measurement-approvals.js');
      await approveLocalMode(node.rpcUrl, root, cs.agentContractId, log);
      if (o.whitelistAll) {
        const { whitelistAll } = await import('./chain-signatures/whitelist-all.js');
        stopWhitelistAll = whitelistAll({ node, agentContractId: cs.agentContractId, owner: root, log });
      }
    }
    // In this process, the agent API's JSON-RPC is the node's own, answered without a socket (the same answers
    // as its port: rpc/in-process-fetch.ts): a request_signature's four calls cost no HTTP round trip.
    if (image === undefined) api = await startAgentApi(config, { log, fetch: node.fetchWithViewWorkers });
    else {
      const { startAgentImage } = await import('./agent-image/run-agent-image.js');
      api = await startAgentImage({
        engine: image.engine,
        ref: image.ref,
        agentEnv: stackAgentEnv(agentEnv, settings),
        env: o.env ?? process.env,
        log,
      });
    }
  } catch (error) {
    await stopWhitelistAll?.();
    await dstack?.stop();
    await cs.stop();
    await stopAnvil();
    throw error;
  }
  const running = api;
  const evmInfo: LocalEvmInfo | null =
    evm === null ? null : { rpcUrl: evm.rpcUrl, chainId: evm.chainId, funded: evm.funded };
  // The explorer page reads the EVM chain from the browser (its sign requests link to EVM transactions).
  if (evmInfo !== null)
    node.setExplorerSettings({ evm: { rpcUrl: evmInfo.rpcUrl, chainId: evmInfo.chainId } });
  return {
    evm: evmInfo,
    txLog:
      evmInfo === null
        ? undefined
        : async (write, colours) => {
            const { watchEvmSignatures } = await import('./evm/signature-watch.js');
            const watch = await watchEvmSignatures({
              rpcUrl: evmInfo.rpcUrl,
              node,
              write,
              colours,
              onError: (err) => log.debug({ err }, 'EVM signature watch'),
            });
            return () => watch.stop();
          },
    ready: {
      agentApiUrl: running.url,
      agentContractId: cs.agentContractId,
      agentContractOwner: cs.agentContractOwner,
      mpcContractId: cs.mpcContractId,
      chainAccountId: root.accountId,
      agentAddresses: addresses,
      evm: evmInfo,
      ...(image === undefined ? {} : { agentImage: { ref: image.ref, digest: image.digest } }),
      ...(dstack === undefined ? {} : { tee: dstack.info }),
    },
    summary: [
      ['Agent API', running.url],
      ...(image === undefined
        ? []
        : ([
            ['Agent image', image.ref],
            ['Image digest', `${image.digest} (the agent's codehash)`],
          ] as Array<[string, string]>)),
      ...(dstack?.summary ?? []),
      ['Agent contract', cs.agentContractId],
      ['MPC contract', cs.mpcContractId],
      ['MPC responder', cs.responderAccountId],
      ['MPC root keys', cs.publicKeys.secp256k1],
      ['', cs.publicKeys.ed25519],
      ['Chain account', root.accountId],
      ...agentAddressRows(addresses),
      ...evmSummaryRows(evmInfo, evmPlan.start ? undefined : evmPlan.reason),
    ],
    later: running.onReady().then((agentAccountId) => ({
      json: { event: 'agent-ready', agentAccountId },
      text: `Agent account ${agentAccountId} registered in ${cs.agentContractId}`,
    })),
    stop: async () => {
      try {
        await running.stop();
        await dstack?.stop();
        await stopWhitelistAll?.();
        await cs.stop();
      } finally {
        await stopAnvil();
      }
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

/**
 * The local EVM chain as a service of `shadebox up`: anvil started (./start-anvil.ts) and the agent's derived
 * EVM addresses funded there (100 ETH each, `anvil_setBalance`): the address the agent contract derives for
 * ethereum-1 and for each `--evm-fund-path`, from the signer's secp256k1 root key, as chainsig.js derives them.
 * What it gives `up`'s ready line (`evm`) and summary rows.
 */

import { DOMAIN_SECP256K1, derivedPublicKey, evmAddress } from '@shadebox/mpc';
import type { Logger } from '@shadebox/node';
import type { EvmPlan } from './evm-flags.js';
import { evmRpc } from './evm-rpc.js';
import { type RunningAnvil, startAnvil } from './start-anvil.js';

/** What each funded address holds at start: 100 ETH, in wei. */
export const FUNDING_WEI = 100n * 10n ** 18n;

/** The running EVM chain, as the ready line's `evm` gives it. */
export interface LocalEvmInfo {
  /** Its JSON-RPC endpoint (anvil: Ethereum JSON-RPC, anvil_* and evm_* methods). */
  rpcUrl: string;
  chainId: number;
  /** The agent's derived addresses funded with 100 ETH at start. */
  funded: Array<{ path: string; address: string }>;
}

export interface RunningLocalEvm extends LocalEvmInfo {
  stop(): Promise<void>;
}

/** Starts anvil as `plan` says (it must start). Resolves once it answers; funding comes after (`fundAgent`). */
export function startLocalEvm(
  plan: Extract<EvmPlan, { start: true }>,
  o: { host?: string; log: Logger; env?: NodeJS.ProcessEnv },
): Promise<RunningAnvil> {
  return startAnvil({
    path: plan.anvilPath,
    host: o.host,
    port: plan.port,
    chainId: plan.chainId,
    log: o.log,
    env: o.env,
  });
}

/** The addresses the agent contract (`predecessor`) derives for `paths` from the signer's root key. */
export function derivedEvmAddresses(
  rootSecp256k1: string,
  predecessor: string,
  paths: readonly string[],
): Array<{ path: string; address: string }> {
  return paths.map((path) => ({
    path,
    address: evmAddress(derivedPublicKey(rootSecp256k1, predecessor, path, DOMAIN_SECP256K1)),
  }));
}

/** Funds the derived addresses of `paths` with 100 ETH each on `anvil`. */
export async function fundAgent(
  anvil: RunningAnvil,
  rootSecp256k1: string,
  predecessor: string,
  paths: readonly string[],
): Promise<RunningLocalEvm> {
  const funded = derivedEvmAddresses(rootSecp256k1, predecessor, paths);
  for (const { address } of funded) {
    await evmRpc(anvil.rpcUrl, 'anvil_setBalance', [address, `0x${FUNDING_WEI.toString(16)}`]);
  }
  return { rpcUrl: anvil.rpcUrl, chainId: anvil.chainId, funded, stop: anvil.stop };
}

/** The summary's rows: the endpoint, the chain id and the funded addresses, or why it did not start. */
export function evmSummaryRows(evm: LocalEvmInfo | null, notStarted?: string): Array<[string, string]> {
  if (evm === null) return notStarted === undefined ? [] : [['EVM chain', `(not started: ${notStarted})`]];
  return [
    ['EVM RPC', `${evm.rpcUrl}  (anvil)`],
    ['EVM chain id', String(evm.chainId)],
    ...evm.funded.map(({ path, address }, i): [string, string] => [
      i === 0 ? 'EVM funded' : '',
      `${address}  100 ETH  (path ${path})`,
    ]),
  ];
}

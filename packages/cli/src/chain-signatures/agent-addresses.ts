/**
 * The agent's foreign-chain addresses that `shadebox up` prints: the keys the signer derives for the agent
 * contract (the predecessor of every `sign` it makes for its agents) under one default path per chain, turned
 * into addresses as chainsig.js's `Evm`, `Bitcoin` (testnet, P2WPKH) and `Solana` adapters do. The paths are
 * the Shade Agent templates' style, `<chain>-1`.
 */
import {
  bitcoinP2wpkhAddress,
  DOMAIN_ED25519,
  DOMAIN_SECP256K1,
  derivedPublicKey,
  evmAddress,
  solanaAddress,
} from '@shadebox/mpc';

export const DEFAULT_DERIVATION_PATHS = {
  evm: 'ethereum-1',
  bitcoin: 'bitcoin-1',
  solana: 'solana-1',
} as const;

export interface AgentAddresses {
  /** The account the keys derive from: the agent contract. */
  predecessor: string;
  evm: { path: string; address: string };
  bitcoin: { path: string; network: 'testnet'; address: string };
  solana: { path: string; address: string };
}

export function agentAddresses(
  rootKeys: { secp256k1: string; ed25519: string },
  agentContractId: string,
): AgentAddresses {
  const paths = DEFAULT_DERIVATION_PATHS;
  const secp = (path: string) =>
    derivedPublicKey(rootKeys.secp256k1, agentContractId, path, DOMAIN_SECP256K1);
  return {
    predecessor: agentContractId,
    evm: { path: paths.evm, address: evmAddress(secp(paths.evm)) },
    bitcoin: {
      path: paths.bitcoin,
      network: 'testnet',
      address: bitcoinP2wpkhAddress(secp(paths.bitcoin), 'testnet'),
    },
    solana: {
      path: paths.solana,
      address: solanaAddress(
        derivedPublicKey(rootKeys.ed25519, agentContractId, paths.solana, DOMAIN_ED25519),
      ),
    },
  };
}

/** Summary rows: one per chain, with the path it derives from. */
export function agentAddressRows(a: AgentAddresses): Array<[string, string]> {
  return [
    ['EVM address', `${a.evm.address}  (path ${a.evm.path})`],
    ['Bitcoin address', `${a.bitcoin.address}  (testnet, path ${a.bitcoin.path})`],
    ['Solana address', `${a.solana.address}  (path ${a.solana.path})`],
  ];
}

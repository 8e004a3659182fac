/**
 * The genesis account of a new chain: the validator, holder of the supply and parent of the dev accounts.
 * A chain whose id is `testnet` (a testnet twin, `--chain-id testnet`) gets `testnet`, the account that owns
 * every `*.testnet` name on NEAR testnet, so its dev and stack accounts get testnet-style names
 * (`dev-0.testnet`, `signer.testnet`); any other chain id gets `test.near`, as `neard init` names its
 * validator.
 */

export const TESTNET_CHAIN_ID = 'testnet';

/** The genesis account of localnet and of every chain id but `testnet`. */
export const DEFAULT_GENESIS_ACCOUNT_ID = 'test.near';

export function genesisAccountIdFor(chainId: string | undefined): string {
  return chainId === TESTNET_CHAIN_ID ? 'testnet' : DEFAULT_GENESIS_ACCOUNT_ID;
}

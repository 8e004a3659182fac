/**
 * The chain-signature accounts of a stack and their keys: the signer contract (`signer.test.near` unless
 * chosen), the agent contract and the responder's account. A home keeps the keys in `mpc_accounts.json` (mode 0600) so a
 * restarted stack can still act for them; an in-memory stack makes new ones.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KeyPair } from '@shadebox/primitives';

/**
 * The signer contract's default account: a sub-account of the genesis account (`signer.test.near`). Not
 * `v1.signer`: chainsig.js takes `v1.signer` and `v1.signer-prod.testnet` for NEAR's production contracts and
 * derives their keys offline from NEAR's root keys, where for any other id it asks the chain.
 */
export function defaultMpcContractId(rootAccountId: string): string {
  return `signer.${rootAccountId}`;
}

export interface AccountKey {
  accountId: string;
  secretKey: string;
}

export interface ChainSignatureAccounts {
  signer: AccountKey;
  agent: AccountKey;
  responder: AccountKey;
}

const FILE = 'mpc_accounts.json';

function fresh(rootAccountId: string, mpcContractId: string): ChainSignatureAccounts {
  const key = () => KeyPair.fromRandom('ed25519').toString();
  return {
    signer: { accountId: mpcContractId, secretKey: key() },
    agent: { accountId: `agent.${rootAccountId}`, secretKey: key() },
    responder: { accountId: `mpc-responder.${rootAccountId}`, secretKey: key() },
  };
}

/** The accounts of `home` (created and saved on first use), or new ones for an in-memory stack. A home keeps
 * the signer id it was first set up with: without `mpcContractId` that one (a home made before the default
 * became `signer.test.near` keeps `v1.signer`), with another one it is refused. */
export function loadOrCreateAccounts(
  home: string | null,
  rootAccountId: string,
  mpcContractId?: string,
): ChainSignatureAccounts {
  if (home === null) return fresh(rootAccountId, mpcContractId ?? defaultMpcContractId(rootAccountId));
  const path = join(home, FILE);
  if (existsSync(path)) {
    const saved = JSON.parse(readFileSync(path, 'utf8')) as ChainSignatureAccounts;
    if (mpcContractId !== undefined && saved.signer.accountId !== mpcContractId) {
      throw new Error(
        `this home's signer contract is ${saved.signer.accountId} (${path}), not ${mpcContractId}`,
      );
    }
    return saved;
  }
  const accounts = fresh(rootAccountId, mpcContractId ?? defaultMpcContractId(rootAccountId));
  writeFileSync(path, `${JSON.stringify(accounts, null, 2)}\n`, { mode: 0o600 });
  return accounts;
}

/**
 * The chain-signature accounts of a stack and their keys: the signer contract (`v1.signer`), the agent
 * contract and the responder's account. A home keeps the keys in `mpc_accounts.json` (mode 0600) so a
 * restarted stack can still act for them; an in-memory stack makes new ones.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KeyPair } from '@shadebox/primitives';

export const MPC_CONTRACT_ID = 'v1.signer';

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
 * the signer id it was first set up with. */
export function loadOrCreateAccounts(
  home: string | null,
  rootAccountId: string,
  mpcContractId = MPC_CONTRACT_ID,
): ChainSignatureAccounts {
  if (home === null) return fresh(rootAccountId, mpcContractId);
  const path = join(home, FILE);
  if (existsSync(path)) {
    const saved = JSON.parse(readFileSync(path, 'utf8')) as ChainSignatureAccounts;
    if (saved.signer.accountId !== mpcContractId) {
      throw new Error(
        `this home's signer contract is ${saved.signer.accountId} (${path}), not ${mpcContractId}`,
      );
    }
    return saved;
  }
  const accounts = fresh(rootAccountId, mpcContractId);
  writeFileSync(path, `${JSON.stringify(accounts, null, 2)}\n`, { mode: 0o600 });
  return accounts;
}

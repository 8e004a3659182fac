import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base58Encode, base64Encode, sha256 } from '@shadebox/primitives';
import { deriveDevAccounts } from './dev-accounts.js';
import { genesisAccountIdFor } from './genesis-account.js';
import { validateGenesis } from './genesis-validation.js';
import { createEphemeralHome } from './init-home.js';

// Any bytes do for a genesis record: the node only stores and hashes them.
const CODE = Uint8Array.from([0, 97, 115, 109, 1, 0, 0, 0]);

describe('the genesis account of a new chain', () => {
  it('is testnet for chain id testnet, test.near for any other', () => {
    assert.equal(genesisAccountIdFor('testnet'), 'testnet');
    assert.equal(genesisAccountIdFor(undefined), 'test.near');
    assert.equal(genesisAccountIdFor('localnet'), 'test.near');
    assert.equal(genesisAccountIdFor('mainnet'), 'test.near');
  });

  it('a testnet twin: validator testnet, its dev accounts under it, the contract deployed at genesis', () => {
    const home = createEphemeralHome({
      chainId: 'testnet',
      devAccounts: deriveDevAccounts('shadebox', 2, genesisAccountIdFor('testnet')),
      genesisContracts: [{ accountId: 'testnet', code: CODE }],
    });
    assert.equal(home.genesis.chain_id, 'testnet');
    assert.equal(home.validatorKey.account_id, 'testnet');
    assert.deepEqual(
      home.genesis.validators.map((v) => v.account_id),
      ['testnet'],
    );
    assert.deepEqual(
      home.devAccounts.map((a) => a.account_id),
      ['dev-0.testnet', 'dev-1.testnet'],
    );
    const account = home.genesis.records.find((r) => 'Account' in r && r.Account.account_id === 'testnet');
    assert.ok(account && 'Account' in account);
    assert.equal(account.Account.account.code_hash, base58Encode(sha256(CODE)));
    const contracts = home.genesis.records.filter((r) => 'Contract' in r);
    assert.deepEqual(contracts, [{ Contract: { account_id: 'testnet', code: base64Encode(CODE) } }]);
    assert.deepEqual(validateGenesis(home.genesis), []);
  });

  it('a contract for an account genesis does not hold is refused', () => {
    assert.throws(
      () => createEphemeralHome({ genesisContracts: [{ accountId: 'testnet', code: CODE }] }),
      /a genesis contract needs a genesis account: testnet is not one/,
    );
  });
});

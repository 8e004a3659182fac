/** The chain-signature accounts a home keeps: the default signer id for a new home, the saved one after. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../../test-support/cli-process.js';
import { defaultMpcContractId, loadOrCreateAccounts } from './accounts.js';

describe('chain-signature accounts', () => {
  it('a new stack gets signer.<genesis account> unless an id is given', async () => {
    assert.equal(defaultMpcContractId('test.near'), 'signer.test.near');
    assert.equal(loadOrCreateAccounts(null, 'test.near').signer.accountId, 'signer.test.near');
    assert.equal(loadOrCreateAccounts(null, 'test.near', 'v1.signer').signer.accountId, 'v1.signer');
    const home = await tempDir();
    const made = loadOrCreateAccounts(home, 'test.near');
    assert.equal(made.signer.accountId, 'signer.test.near');
    assert.equal(made.agent.accountId, 'agent.test.near');
    assert.deepEqual(loadOrCreateAccounts(home, 'test.near'), made);
  });

  it('a home keeps the id it was made with, and refuses another', async () => {
    const home = await tempDir();
    const old = loadOrCreateAccounts(null, 'test.near', 'v1.signer');
    writeFileSync(join(home, 'mpc_accounts.json'), JSON.stringify(old));
    assert.deepEqual(loadOrCreateAccounts(home, 'test.near'), old);
    assert.deepEqual(loadOrCreateAccounts(home, 'test.near', 'v1.signer'), old);
    assert.throws(
      () => loadOrCreateAccounts(home, 'test.near', 'signer.test.near'),
      /this home's signer contract is v1\.signer \(.*mpc_accounts\.json\), not signer\.test\.near/,
    );
  });
});

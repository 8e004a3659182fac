/**
 * Genesis records of an uninitialized universal account (NEP-655), as a state dump writes them
 * (`"state": "uninitialized"` and its `bootstrap_nonce`): accepted and applied as uninitialized, with nearcore
 * 2.14's refusals (genesis_validate.rs): no bootstrap nonce, a bootstrap nonce on an initialized account, a
 * locked balance, or a key of its own.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { publicKeyToString, universalAccountIdOfRaw } from '@shadebox/primitives';
import { testRandom } from '../../../../test/test-random.js';
import { createDefaultGenesis } from '../config/genesis-defaults.js';
import { validateGenesis } from '../config/genesis-validation.js';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { runtimeParamsFrom } from '../runtime/runtime-params.js';
import { accountToView } from '../state/account.js';
import { StateUpdate } from '../state/state-update.js';
import { getAccount } from '../state/typed-state.js';
import { applyGenesisRecords, type StateRecordJson } from './genesis-state.js';

const rng = testRandom('packages/node/src/chain/genesis-uninitialized-account.test.ts');
const runtimeConfig = loadRuntimeConfig(87);
const publicKey = publicKeyToString(rng.keyPair('ed25519').publicKey);
const uaid = universalAccountIdOfRaw(Uint8Array.of(1, 2, 3));
const AMOUNT = 5n * 10n ** 24n;

// biome-ignore lint/suspicious/noExplicitAny: tests poke at arbitrary JSON
function genesisWith(account: Record<string, unknown>): any {
  const g = JSON.parse(
    JSON.stringify(
      createDefaultGenesis({
        validatorKey: { account_id: 'test.near', public_key: publicKey },
        runtimeConfig,
        genesisTime: new Date('2026-01-02T03:04:05.678Z'),
      }),
    ),
  );
  g.records.push({ Account: { account_id: uaid, account } });
  g.total_supply = (BigInt(g.total_supply) + AMOUNT).toString();
  return g;
}

const uninitialized = {
  amount: AMOUNT.toString(),
  locked: '0',
  code_hash: '11111111111111111111111111111111',
  storage_usage: 100,
  version: 'V1',
  state: 'uninitialized',
  bootstrap_nonce: 41_000_000,
};

describe('genesis records of an uninitialized universal account', () => {
  it('are accepted and applied as uninitialized, with the bootstrap nonce, and print back the same', () => {
    const g = genesisWith(uninitialized);
    assert.deepEqual(validateGenesis(g), []);
    const state = new StateUpdate(undefined, -1);
    applyGenesisRecords(state, g.records as StateRecordJson[], runtimeParamsFrom(runtimeConfig));
    const account = getAccount(state, uaid)!;
    assert.deepEqual(account.uninitialized, { bootstrapNonce: 41_000_000n });
    const view = accountToView(account);
    assert.equal(view.state, 'uninitialized');
    assert.equal(view.bootstrap_nonce, 41_000_000);
    assert.equal(view.amount, AMOUNT.toString());
  });

  it('are refused without a bootstrap nonce, with a locked balance, or owning a key', () => {
    const { bootstrap_nonce: _, ...noNonce } = uninitialized;
    assert.deepEqual(
      validateGenesis(genesisWith(noNonce)).map((i) => i.message),
      ['an uninitialized account needs its bootstrap_nonce'],
    );
    const locked = genesisWith({ ...uninitialized, locked: '1' });
    locked.total_supply = (BigInt(locked.total_supply) + 1n).toString();
    assert.ok(validateGenesis(locked).some((i) => i.path.endsWith('.account.locked')));
    const keyed = genesisWith(uninitialized);
    keyed.records.push({
      AccessKey: {
        account_id: uaid,
        public_key: publicKey,
        access_key: { nonce: 0, permission: 'FullAccess' },
      },
    });
    assert.ok(
      validateGenesis(keyed).some((i) => /uninitialized and cannot own state records/.test(i.message)),
    );
  });

  it('a bootstrap nonce on an initialized account is refused', () => {
    const { state: _, ...initialized } = uninitialized;
    assert.deepEqual(
      validateGenesis(genesisWith(initialized)).map((i) => i.message),
      ['only an uninitialized account has a bootstrap_nonce'],
    );
  });
});

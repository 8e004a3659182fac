/**
 * End to end with near-api-js as the client: `Account.deployGlobalContract` and `Account.useGlobalContract`
 * (both deploy modes) against a 2-shard node, then a call of the contract through near-api-js.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { base58Encode, ONE_NEAR, sha256 } from '@shadebox/primitives';
import type { Account } from 'near-api-js';
import { rpc, viewAccountJson } from './support/rpc-calls.js';
import { newKey, startTestNode, type TestNode } from './support/test-node.js';
import { wat } from './vm-wat-helpers.js';

const CONTRACT = `(module
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (memory (export "memory") 1)
  (data (i32.const 0) "\\"hello\\"")
  (func (export "hello") (call $value_return (i64.const 7) (i64.const 0))))`;

describe('global contracts through near-api-js', () => {
  let t: TestNode;
  let code: Uint8Array;
  const accounts: Record<string, Account> = {};

  /** Polls (bounded) until the code is on every shard: the view answers and no receipt is in flight. */
  async function distributed(query: Record<string, unknown>): Promise<void> {
    for (let i = 0; i < 2000; i++) {
      const r = await rpc(t.url, 'query', { finality: 'optimistic', ...query }).catch(() => undefined);
      if (r?.code_base64 && t.node.chain.pendingReceiptCount === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.fail(`global contract ${JSON.stringify(query)} never reached every shard`);
  }

  before(async () => {
    t = await startTestNode({ numShards: 2 });
    code = await wat(CONTRACT);
    for (const name of ['deployer', 'user1', 'user2']) {
      const key = newKey();
      await t.root.createSubAccount({
        accountOrPrefix: name,
        publicKey: key.getPublicKey(),
        nearToTransfer: 20n * ONE_NEAR,
      });
      accounts[name] = t.account(`${name}.${t.rootId}`, key);
    }
  });
  after(async () => {
    await t?.stop();
  });

  it('deploys by code hash and by account id, and other accounts use both', async () => {
    const { deployer, user1, user2 } = accounts;
    const byHash = await deployer.deployGlobalContract(code, 'codeHash');
    assert.deepEqual(byHash.status, { SuccessValue: '' });
    const byAccount = await deployer.deployGlobalContract(code, 'accountId');
    assert.deepEqual(byAccount.status, { SuccessValue: '' });
    const hash = base58Encode(sha256(code));
    await distributed({ request_type: 'view_global_contract_code', code_hash: hash });
    await distributed({
      request_type: 'view_global_contract_code_by_account_id',
      account_id: deployer.accountId,
    });

    // near-api-js 7.2 takes the hash as bytes (a base58 string does not encode to 32 bytes there).
    const used1 = await user1.useGlobalContract({ codeHash: sha256(code) });
    assert.deepEqual(used1.status, { SuccessValue: '' });
    const used2 = await user2.useGlobalContract({ accountId: deployer.accountId });
    assert.deepEqual(used2.status, { SuccessValue: '' });
    assert.equal((await viewAccountJson(t.url, user1.accountId)).global_contract_hash, hash);
    assert.equal(
      (await viewAccountJson(t.url, user2.accountId)).global_contract_account_id,
      deployer.accountId,
    );

    for (const user of [user1, user2]) {
      assert.equal(
        await t.provider.callFunction({ contractId: user.accountId, method: 'hello', args: {} }),
        'hello',
      );
    }
  });
});

/**
 * When published global code becomes usable (nearcore runtime/runtime/src/global_contracts.rs): the deploy
 * receipt starts a `GlobalContractDistribution` receipt for the deployer's shard, which stores the code there
 * when it is applied as an incoming receipt of the next chunk, then forwards itself to the next shard, one shard
 * per block. A transaction that deploys from the code (UseGlobalContract by account id or by hash), sent right
 * after the publishing transaction was final, finds it on every shard: the publishing receipt's block is final
 * only once two more blocks exist, and those applied the distribution. On 1 and 2 shards, a user on the
 * deployer's shard and one on the other, with no waiting between the two transactions.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Action, base58Encode, ONE_NEAR, sha256 } from '@shadebox/primitives';
import type { Json } from './support/raw-rpc.js';
import { rpc } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { createAccount, type Signer, sendTx } from './support/transactions.js';
import { wat } from './vm-wat-helpers.js';

const CONTRACT = `(module
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (memory (export "memory") 1)
  (data (i32.const 0) "\\"hi\\"")
  (func (export "hello") (call $value_return (i64.const 4) (i64.const 0))))`;

const statusOf = (r: Json) => r.receipts_outcome.at(-1).outcome.status;

for (const [numShards, deployerShard] of [
  [1, 0],
  [2, 0],
  [2, 1],
]) {
  describe(`published global code is usable once its transaction is final (${numShards} shard${numShards > 1 ? 's' : ''}, deployer on shard ${deployerShard})`, () => {
    let t: TestNode;
    let code: Uint8Array;
    let deployer: Signer;
    /** Two users per shard for each test (one shard is the deployer's). */
    const byAccount: Signer[] = [];
    const byHash: Signer[] = [];

    const send = (from: Signer, actions: Action[], waitUntil = 'FINAL') =>
      sendTx(
        t.url,
        { signerId: from.accountId, key: from.key, receiverId: from.accountId, actions },
        waitUntil,
      );
    const hello = async (accountId: string) => {
      const r = await rpc(t.url, 'query', {
        request_type: 'call_function',
        finality: 'final',
        account_id: accountId,
        method_name: 'hello',
        args_base64: '',
      });
      return Buffer.from(r.result).toString();
    };

    before(async () => {
      t = await startTestNode({ numShards });
      code = await wat(CONTRACT);
      const onShard: string[][] = Array.from({ length: numShards }, () => []);
      for (let i = 0; onShard.some((ids, s) => ids.length < (s === deployerShard ? 5 : 4)); i++) {
        const id = `u${i}.${t.rootId}`;
        const ids = onShard[t.node.chain.shardOf(id)];
        if (ids.length < 5) ids.push(id);
      }
      deployer = await createAccount(t.url, t.rootSigner, onShard[deployerShard][0], 50n * ONE_NEAR);
      for (const ids of onShard) {
        const rest = ids.slice(ids === onShard[deployerShard] ? 1 : 0);
        for (const [i, id] of rest.entries()) {
          const user = await createAccount(t.url, t.rootSigner, id, 5n * ONE_NEAR);
          (i < 2 ? byAccount : byHash).push(user);
        }
      }
    });
    after(async () => {
      await t?.stop();
    });

    it('by account id: UseGlobalContract sent right after the deploy was final succeeds on every shard', async () => {
      const published = await send(deployer, [
        { type: 'DeployGlobalContract', code, deployMode: 'AccountId' },
      ]);
      assert.deepEqual(statusOf(published), { SuccessValue: '' });
      assert.equal(published.final_execution_status, 'FINAL');
      const use: Action = {
        type: 'UseGlobalContract',
        contractIdentifier: { kind: 'AccountId', accountId: deployer.accountId },
      };
      const results = await Promise.all(byAccount.map((u) => send(u, [use])));
      for (const [i, r] of results.entries()) {
        assert.deepEqual(
          statusOf(r),
          { SuccessValue: '' },
          `${byAccount[i].accountId}: ${JSON.stringify(statusOf(r))}`,
        );
        assert.equal(await hello(byAccount[i].accountId), '"hi"');
      }
    });

    it('by code hash: the same, with the transaction sent as soon as the deploy was final', async () => {
      // The same code with one more custom section, so that its hash is new.
      const other = new Uint8Array([...code, 0, 3, 1, 0x78, 0]);
      const published = await send(deployer, [
        { type: 'DeployGlobalContract', code: other, deployMode: 'CodeHash' },
      ]);
      assert.deepEqual(statusOf(published), { SuccessValue: '' });
      const use: Action = {
        type: 'UseGlobalContract',
        contractIdentifier: { kind: 'CodeHash', codeHash: sha256(other) },
      };
      const results = await Promise.all(byHash.map((u) => send(u, [use])));
      for (const [i, r] of results.entries()) {
        assert.deepEqual(
          statusOf(r),
          { SuccessValue: '' },
          `${byHash[i].accountId}: ${JSON.stringify(statusOf(r))}`,
        );
        const view = await rpc(t.url, 'query', {
          request_type: 'view_account',
          finality: 'final',
          account_id: byHash[i].accountId,
        });
        assert.equal(view.global_contract_hash, base58Encode(sha256(other)));
      }
    });
  });
}

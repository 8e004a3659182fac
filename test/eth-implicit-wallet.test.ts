/**
 * End to end: a node given nearcore's ETH wallet contract (`ethWalletContract`, the CLI's
 * `--eth-wallet-contract`) holds it as a global contract from genesis on every shard, and a transfer to a
 * `0x…` account creates that account using it, as nearcore does at protocol 85: the account's
 * `global_contract_hash` is the wallet's, its storage counts the 32 bytes of the hash, and views of it run the
 * wallet contract.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { base58Encode, base64Encode, ONE_NEAR, sha256 } from '@shadebox/primitives';
import { rpc, viewAccountJson } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { sendTx } from './support/transactions.js';

const VENDORED = new URL('../../shared/corpus/nearcore-vendored/', import.meta.url);
const wallet = (chain: string) =>
  new URL(`runtime__near-wallet-contract__res__wallet_contract_${chain}.wasm`, VENDORED).pathname;

for (const chain of ['localnet', 'testnet', 'mainnet']) {
  describe(`ETH-implicit accounts with the ${chain} wallet contract (two shards)`, () => {
    let t: TestNode;
    const code = new Uint8Array(readFileSync(wallet(chain)));
    const hash = base58Encode(sha256(code));

    before(async () => {
      t = await startTestNode({ numShards: 2, ethWalletContract: wallet(chain) });
    });
    after(async () => {
      await t?.stop();
    });

    it('is a global contract from genesis on every shard', async () => {
      const view = await rpc(t.url, 'query', {
        request_type: 'view_global_contract_code',
        code_hash: hash,
        block_id: 0,
      });
      assert.equal(view.code_base64, base64Encode(code));
      assert.equal(view.hash, hash);
    });

    it('a transfer creates the 0x account on the wallet contract, and its views run the wallet', async () => {
      // One account on each shard.
      const byShard = new Map<number, string>();
      for (let i = 1; byShard.size < 2; i++) {
        const id = `0x${i.toString(16).padStart(40, 'a')}`;
        if (!byShard.has(t.node.chain.shardOf(id))) byShard.set(t.node.chain.shardOf(id), id);
      }
      for (const id of byShard.values()) {
        const r = await sendTx(t.url, {
          signerId: t.rootSigner.accountId,
          key: t.rootSigner.key,
          receiverId: id,
          actions: [{ type: 'Transfer', deposit: ONE_NEAR }],
        });
        assert.ok('SuccessValue' in r.receipts_outcome[0].outcome.status, JSON.stringify(r.status));
        const account = await viewAccountJson(t.url, id);
        assert.equal(account.amount, ONE_NEAR.toString());
        assert.equal(account.global_contract_hash, hash);
        assert.equal(account.code_hash, '11111111111111111111111111111111');
        assert.equal(account.storage_usage, Number(t.cfg.storageUsage.numBytesAccount) + 32);
        const viewCode = await rpc(t.url, 'query', {
          request_type: 'view_code',
          finality: 'final',
          account_id: id,
        });
        assert.equal(viewCode.hash, hash);
        // The wallet's own view: a fresh wallet has used no nonce (a JSON string, as near-sdk's U64).
        const nonce = await rpc(t.url, 'query', {
          request_type: 'call_function',
          finality: 'final',
          account_id: id,
          method_name: 'get_nonce',
          args_base64: '',
        });
        assert.equal(nonce.error, undefined, nonce.error);
        assert.equal(Buffer.from(nonce.result).toString(), '"0"');
      }
    });
  });
}

/**
 * End to end: `maintenance_windows` and `EXPERIMENTAL_maintenance_windows` on a real node. The one validator
 * (test.near) produces every block and chunk, so it has no window; any other account may stop from the head
 * to the end of the epoch. Ranges are nearcore's `Range<BlockHeight>`: `{start, end}`, end excluded.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rpcRaw } from './support/raw-rpc.js';
import { rpc } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';

describe('maintenance_windows', () => {
  let t: TestNode;
  before(async () => {
    t = await startTestNode({ epochLength: 10, production: 'manual' });
    await rpc(t.url, 'sandbox_produce_blocks', { count: 3 });
  });
  after(() => t.stop());

  it('has no window for the validator and the rest of the epoch for anyone else', async () => {
    const head = (await rpc(t.url, 'status', [])).sync_info.latest_block_height as number;
    assert.equal(head, 3);
    // Epochs of 10 blocks from height 1: the current one ends before 11.
    for (const method of ['maintenance_windows', 'EXPERIMENTAL_maintenance_windows']) {
      assert.deepEqual(await rpc(t.url, method, { account_id: t.rootId }), []);
      assert.deepEqual(await rpc(t.url, method, { account_id: 'someone.near' }), [{ start: 3, end: 11 }]);
    }
    await rpc(t.url, 'sandbox_produce_blocks', { count: 8 });
    // Height 11 starts the next epoch, which ends before 21.
    assert.deepEqual(await rpc(t.url, 'maintenance_windows', { account_id: 'someone.near' }), [
      { start: 11, end: 21 },
    ]);
  });

  it('refuses a missing or invalid account id as nearcore parses the request', async () => {
    const missing = await rpcRaw(t.url, 'maintenance_windows', {});
    assert.equal(missing.error?.name, 'REQUEST_VALIDATION_ERROR');
    assert.equal(missing.error?.cause?.name, 'PARSE_ERROR');
    assert.match(String(missing.error?.data), /missing field `account_id`/);
    const invalid = await rpcRaw(t.url, 'maintenance_windows', { account_id: 'Not Valid' });
    assert.equal(invalid.error?.cause?.name, 'PARSE_ERROR');
  });
});

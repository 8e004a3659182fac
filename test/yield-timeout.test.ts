/**
 * Yields time out as on NEAR under automine: while a sign request waits for the MPC's answer, the node makes a
 * block every `yieldBlockTimeMs` (600 ms by default, 10 ms here), so a request nobody answers fails with the
 * signer's "Request has timed out." 200 blocks after its yield (nearcore's `yield_timeout_length_in_blocks`);
 * once nothing waits any more, automine stops making blocks again. (`sandbox_fast_forward` reaching the
 * timeout at once is in test/chain-signatures.test.ts.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ContractError, KeyPool, type Outcome, outcomeResult, RpcClient } from '@shadebox/near-client';
import {
  hasPendingYield,
  queuedYieldTimeouts,
  type RunningNode,
  silentLogger,
  startNode,
} from '@shadebox/node';
import { type Action, KeyPair, TGAS } from '@shadebox/primitives';
import { type ChainSignatures, startChainSignatures } from '../packages/cli/src/chain-signatures/service.js';
import { until } from './agent-stack-helpers.js';

const YIELD_TIMEOUT_BLOCKS = 200;

function sign(path: string, payloadHex: string): Action {
  return {
    type: 'FunctionCall',
    methodName: 'sign',
    args: Buffer.from(JSON.stringify({ request: { path, payload_v2: { Ecdsa: payloadHex }, domain_id: 0 } })),
    gas: 50n * TGAS,
    deposit: 1n,
  };
}

interface Stack {
  node: RunningNode;
  cs: ChainSignatures;
  rpc: RpcClient;
  root: KeyPool;
}

async function startStack(withResponder: boolean): Promise<Stack> {
  // The request waits 200 blocks: `send_tx` may wait that long.
  const node = await startNode({
    memory: true,
    rpcPort: 0,
    log: silentLogger,
    yieldBlockTimeMs: 10,
    txTimeoutMs: 300_000,
  });
  const [r] = node.accounts;
  const cs = await startChainSignatures({
    rpcUrl: node.rpcUrl,
    home: null,
    root: { accountId: r.accountId, secretKey: r.secretKey },
    log: silentLogger,
    deployOnly: !withResponder,
  });
  const rpc = new RpcClient([node.rpcUrl], 300_000);
  return { node, cs, rpc, root: new KeyPool(rpc, r.accountId, [KeyPair.fromString(r.secretKey)]) };
}

async function heightOf(rpc: RpcClient, blockHash: string): Promise<number> {
  const block = (await rpc.call('block', { block_id: blockHash })) as { header: { height: number } };
  return block.header.height;
}

describe('automine and a sign request nobody answers (no responder)', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack(false);
  });
  after(async () => {
    await stack?.cs.stop();
    await stack?.node.stop();
  });

  it('blocks keep coming at the yield pace; the request fails with "Request has timed out." after 200 blocks', async () => {
    const { node, rpc, root } = stack;
    assert.equal(node.producer.pacingYield, false, 'an idle node waits for nothing');
    const sent = root.send(stack.cs.mpcContractId, [sign('nobody-answers', '66'.repeat(32))]);
    await until('the yield to be parked', () => hasPendingYield(node.chain), 60_000);
    await until('automine to pace it', () => node.producer.pacingYield, 60_000);
    const outcome: Outcome = await sent;
    assert.equal(hasPendingYield(node.chain), false);
    assert.throws(
      () => outcomeResult(outcome),
      (e: unknown) => e instanceof ContractError && e.message === 'Request has timed out.',
    );
    // The sign receipt parked the yield; the receipt that failed ran after the timeout, 200 blocks later.
    const receipts = outcome.receipts_outcome as Array<{ block_hash: string; outcome: { status: object } }>;
    const signedAt = await heightOf(rpc, receipts[0].block_hash);
    const failed = receipts.find((r) => JSON.stringify(r.outcome.status).includes('Request has timed out.'));
    assert.ok(failed, JSON.stringify(receipts.map((r) => r.outcome.status)));
    const failedAt = await heightOf(rpc, failed.block_hash);
    assert.ok(
      failedAt - signedAt >= YIELD_TIMEOUT_BLOCKS,
      `timed out at ${failedAt}, ${failedAt - signedAt} blocks after the yield at ${signedAt}`,
    );
    // Nothing waits any more: automine finishes the work, then makes no more blocks.
    await until('automine to stop pacing', () => !node.producer.pacingYield, 60_000);
    await until('the last block to be final', () => node.chain.finalHeight('final') >= failedAt, 60_000);
    assert.equal(node.producer.pacingYield, false);
  });
});

describe('automine and answered sign requests (responder on)', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack(true);
  });
  after(async () => {
    await stack?.cs.stop();
    await stack?.node.stop();
  });

  it('an answered request leaves no pacing behind, though its timeout stays queued for 200 blocks', async () => {
    const { node, root } = stack;
    const outcome: Outcome = await root.send(stack.cs.mpcContractId, [sign('answered', '77'.repeat(32))]);
    const response = outcomeResult(outcome) as { scheme: string };
    assert.equal(response.scheme, 'Secp256k1');
    // The yield's timeout is still queued (until its height), but no yield waits: nothing to pace.
    assert.ok(queuedYieldTimeouts(node.chain) > 0, 'the timeout stays queued');
    assert.equal(hasPendingYield(node.chain), false);
    await until('automine to stop pacing', () => !node.producer.pacingYield, 60_000);
  });
});

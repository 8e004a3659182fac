/**
 * Every exported method of every contract of the corpus (`../shared/corpus/`, its analysis.json), called as a
 * view with `{}`, gets the same answer text from a view worker thread as from the RPC's own thread: values,
 * panics, ProhibitedInView, gas exceeded, link and preparation errors alike (rpc/view-worker-pool.ts).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createInMemoryRpcContext } from './in-memory-context.js';
import { handleJsonRpc } from './jsonrpc.js';
import { ViewWorkerPool } from './view-worker-pool.js';

const CORPUS = join(process.cwd(), '..', 'shared', 'corpus');

interface CorpusEntry {
  file: string;
  exports: string[];
}

describe('the corpus: view answers from a worker thread equal the RPC thread answers', {
  skip: !existsSync(CORPUS),
  timeout: 1_800_000,
}, () => {
  const ctx = createInMemoryRpcContext({ blocks: 1 });
  const pool = new ViewWorkerPool(1, {
    protocolVersion: ctx.chain.params.protocolVersion,
    chainId: ctx.chain.params.chainId,
    validatorStakes: ctx.chain.validatorStakes(),
  });
  let corpus: CorpusEntry[] = [];

  before(async () => {
    corpus = JSON.parse(readFileSync(join(CORPUS, 'analysis.json'), 'utf8'));
    const records = corpus.flatMap((entry, i) => [
      {
        Account: {
          account_id: `c${i}.test.near`,
          account: { amount: '100000000000000000000000000000', locked: '0' },
        },
      },
      {
        Contract: {
          account_id: `c${i}.test.near`,
          code: readFileSync(join(CORPUS, entry.file)).toString('base64'),
        },
      },
    ]);
    const patched = await handleJsonRpc(
      ctx,
      JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'sandbox_patch_state', params: { records } }),
    );
    assert.equal(patched.body, '{"jsonrpc":"2.0","result":{},"id":0}');
    ctx.producer.produce(3);
    await pool.warmUp();
    assert.equal(pool.readyWorkers, 1);
  });

  after(() => pool.close());

  it('every export of every contract', async () => {
    const differ: string[] = [];
    let calls = 0;
    for (const [i, entry] of corpus.entries()) {
      for (const method of entry.exports) {
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: calls++,
          method: 'query',
          params: {
            request_type: 'call_function',
            finality: 'final',
            account_id: `c${i}.test.near`,
            method_name: method,
            args_base64: Buffer.from('{}').toString('base64'),
          },
        });
        ctx.viewWorkers = undefined;
        const inThread = await handleJsonRpc(ctx, body);
        ctx.viewWorkers = pool;
        const onWorker = await handleJsonRpc(ctx, body);
        if (onWorker.body !== inThread.body)
          differ.push(`${entry.file} ${method}:\n  thread ${inThread.body}\n  worker ${onWorker.body}`);
      }
    }
    assert.deepEqual(differ, []);
    assert.equal(pool.stats.byWorker + pool.stats.handedBack, calls, 'every view went to the worker');
  });
});
